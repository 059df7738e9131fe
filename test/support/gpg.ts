// A throw-away OpenPGP signing key made by the real gpg (--batch, no passphrase) in its own
// GNUPGHOME, for signed commits and tags in tests. close() stops the agent gpg started and removes
// the directory.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { makeWorkDir } from "../../src/util/work-dir.js";

export interface GpgKey {
  keyId: string;
  gnupgHome: string;
  /** Armored public key, as `gpg --export --armor` gives it. */
  publicKey: string;
  close(): Promise<void>;
}

function run(cmd: string, args: string[], home: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GNUPGHOME: home, LC_ALL: "C" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    child.stderr.on("data", (d: Buffer) => (err += d));
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(" ")} failed: ${err.trim()}`)),
    );
  });
}

export async function createGpgKey(name: string): Promise<GpgKey> {
  const home = makeWorkDir("flotilla-gpg-");
  const uid = `${name} <${name.toLowerCase().replace(/\W+/g, "-")}@flotilla.invalid>`;
  await run("gpg", ["--batch", "--passphrase", "", "--quick-gen-key", uid, "ed25519", "sign", "never"], home);
  const colons = await run("gpg", ["--batch", "--with-colons", "--list-keys", uid], home);
  const keyId = colons
    .split("\n")
    .find((l) => l.startsWith("pub:"))!
    .split(":")[4]!;
  const publicKey = await run("gpg", ["--batch", "--armor", "--export", keyId], home);
  return {
    keyId,
    gnupgHome: home,
    publicKey,
    close: async () => {
      await run("gpgconf", ["--kill", "all"], home).catch(() => {});
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export interface GpgEncryptionKey extends GpgKey {
  fingerprint: string;
  /** Armored private key, as `gpg --export-secret-keys --armor` gives it (what a `*.asc` entry holds). */
  secretKey: string;
}

/** A throw-away OpenPGP key that can decrypt (an ed25519 primary with a cv25519 encryption subkey), as sops needs. */
export async function createGpgEncryptionKey(name: string): Promise<GpgEncryptionKey> {
  const key = await createGpgKey(name);
  const colons = await run("gpg", ["--batch", "--with-colons", "--fingerprint", key.keyId], key.gnupgHome);
  const fingerprint = colons
    .split("\n")
    .find((l) => l.startsWith("fpr:"))!
    .split(":")[9]!;
  await run(
    "gpg",
    ["--batch", "--passphrase", "", "--quick-add-key", fingerprint, "cv25519", "encr", "never"],
    key.gnupgHome,
  );
  const secretKey = await run("gpg", ["--batch", "--armor", "--export-secret-keys", fingerprint], key.gnupgHome);
  return { ...key, fingerprint, secretKey };
}
