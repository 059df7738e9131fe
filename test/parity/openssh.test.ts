// flotilla's OpenSSH wrapper with the real ssh-keygen: a public half read from flux's own test keys (plain
// and passphrase-protected, as its goldens have them), a passphrase taken off, a generated key, and the
// one-line errors for a wrong passphrase.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateKeyPair, publicKeyOf, withoutPassphrase } from "../../src/binaries/openssh/index.js";

const KEYS = "test/fixtures/flux-cli/create/create_secret/git";
const pubOf = (golden: string) =>
  /identity\.pub: \|\n {4}(\S+ \S+)\n/.exec(readFileSync(`${KEYS}/${golden}`, "utf8"))![1];

describe("binaries/openssh", () => {
  it("reads the public key of flux's test keys, with and without a passphrase", async () => {
    expect(await publicKeyOf(readFileSync(`${KEYS}/ecdsa.private`, "utf8"))).toBe(pubOf("git-ssh-secret.yaml"));
    const locked = readFileSync(`${KEYS}/ecdsa-password.private`, "utf8");
    expect(await publicKeyOf(locked, "password")).toBe(pubOf("git-ssh-secret-password.yaml"));
    await expect(publicKeyOf(locked, "wrong")).rejects.toThrow(/^unable to read the private key: /);
  });

  it("takes a passphrase off, keeping the key", async () => {
    const locked = readFileSync(`${KEYS}/ecdsa-password.private`, "utf8");
    const open = await withoutPassphrase(locked, "password");
    expect(open).toContain("-----BEGIN OPENSSH PRIVATE KEY-----");
    expect(await publicKeyOf(open)).toBe(pubOf("git-ssh-secret-password.yaml"));
  });

  it.each([
    ["ecdsa", 384, /^ecdsa-sha2-nistp384 /],
    ["ed25519", undefined, /^ssh-ed25519 /],
    ["rsa", 2048, /^ssh-rsa /],
  ] as const)("generates %s keys whose public half matches", async (algorithm, bits, prefix) => {
    const pair = await generateKeyPair(algorithm, bits);
    expect(pair.publicKey).toMatch(prefix);
    expect(await publicKeyOf(pair.privateKey)).toBe(pair.publicKey);
  });
});
