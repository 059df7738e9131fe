// SOPS parity corpus: files encrypted at test time by the real sops (age keys from the real
// age-keygen, X25519 and post-quantum; an OpenPGP key from gpg), in every format sops writes and with
// encrypted_regex, unencrypted_suffix and mac_only_encrypted. flotilla's decryption (keys imported as
// from a decryption Secret, plaintext in memory) must equal `sops decrypt` byte for byte; tampered
// ciphertext, a tampered MAC and a wrong key must fail where sops fails, naming the file.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSopsKeyring, type SopsFormat, type SopsKeyring } from "../../src/binaries/sops/index.js";
import { decryptResources, decryptSources } from "../../src/controllers/kustomization/sops-decrypt.js";
import type { Resource } from "../../src/kustomize/resource.js";
import { Redactor } from "../../src/ssa/index.js";
import { createGpgEncryptionKey, type GpgEncryptionKey } from "../support/gpg.js";
import { type AgeIdentity, newAgeIdentity, runSops, sopsEncrypt } from "../support/sops.js";

const SECRET_YAML = `apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: apps
type: Opaque
stringData:
  password: hunter2-yaml
  token_unencrypted: visible
data:
  key: c2VjcmV0LWJ5dGVz
`;
const PLAIN: Record<Exclude<SopsFormat, "binary">, [string, string]> = {
  yaml: ["secret.yaml", SECRET_YAML],
  json: [
    "config.json",
    '{"user": "admin", "password": "hunter2-json", "port": 5432, "tls": true, "list": [1, "two"]}\n',
  ],
  dotenv: ["app.env", "DB_USER=admin\nDB_PASSWORD=hunter2-env\n# a comment\nEMPTY=\n"],
  ini: ["app.ini", "[database]\nuser = admin\npassword = hunter2-ini\n\n[cache]\nttl = 60\n"],
};
const BINARY = randomBytes(300);

let age: AgeIdentity;
let pq: AgeIdentity;
let other: AgeIdentity;
let gpg: GpgEncryptionKey;
let keyring: SopsKeyring;

beforeAll(async () => {
  age = newAgeIdentity();
  pq = newAgeIdentity(true);
  other = newAgeIdentity();
  gpg = await createGpgEncryptionKey("sops-parity");
  // As a decryption Secret holds them: age.agekey (two identities in one entry) and pgp.asc.
  keyring = await openSopsKeyring([age.identity, pq.identity], new Map([["pgp.asc", Buffer.from(gpg.secretKey)]]));
}, 60_000);
afterAll(async () => {
  await keyring?.close();
  await gpg?.close();
});

/** What the real sops prints for `enc` with only `key` available. */
function oracle(enc: Buffer, format: SopsFormat, key: { age?: AgeIdentity; gpg?: GpgEncryptionKey }) {
  const env: Record<string, string> = key.age ? { SOPS_AGE_KEY: key.age.identity } : { GNUPGHOME: key.gpg!.gnupgHome };
  return runSops(["decrypt", "--input-type", format, "--output-type", format], enc, env);
}

const ours = async (enc: Buffer, format: SopsFormat, display: string, keys: SopsKeyring = keyring) =>
  (await decryptSources([{ path: `/artifact/${display}`, display, format, data: enc }], keys)).get(
    `/artifact/${display}`,
  )!;

type Recipient = "age" | "age-pq" | "pgp";
const recipientFlags = (r: Recipient) =>
  r === "pgp" ? ["--pgp", gpg.fingerprint] : ["--age", r === "age" ? age.recipient : pq.recipient];
const oracleKey = (r: Recipient) => (r === "pgp" ? { gpg } : { age: r === "age" ? age : pq });

const FORMATS: SopsFormat[] = ["yaml", "json", "dotenv", "ini", "binary"];
const plainOf = (f: SopsFormat): [string, string | Buffer] => (f === "binary" ? ["blob.bin", BINARY] : PLAIN[f]);

describe("SOPS decryption equals `sops decrypt` byte for byte", () => {
  const cases = FORMATS.flatMap((f) => (["age", "age-pq", "pgp"] as Recipient[]).map((r) => [f, r] as const));
  it.each(cases)("%s encrypted for %s", async (format, recipient) => {
    const [name, plain] = plainOf(format);
    const env = recipient === "pgp" ? { GNUPGHOME: gpg.gnupgHome } : undefined;
    const enc = sopsEncrypt(plain, name, recipientFlags(recipient), { env });
    const expected = oracle(enc, format, oracleKey(recipient));
    expect(expected.code, expected.stderr).toBe(0);
    const got = await ours(enc, format, name);
    expect(got.equals(expected.stdout)).toBe(true);
    if (format === "binary") expect(got.equals(BINARY)).toBe(true);
  });

  const OPTIONS: [string, SopsFormat, string[]][] = [
    ["encrypted_regex on a Secret", "yaml", ["--encrypted-regex", "^(data|stringData)$"]],
    ["unencrypted_suffix", "yaml", ["--unencrypted-suffix", "_unencrypted"]],
    ["unencrypted_suffix in JSON", "json", ["--unencrypted-suffix", "_unencrypted"]],
    ["encrypted_regex in dotenv", "dotenv", ["--encrypted-regex", "PASSWORD"]],
    ["unencrypted_regex in INI", "ini", ["--unencrypted-regex", "^(user|ttl)$"]],
  ];
  it.each(OPTIONS)("%s", async (_, format, flags) => {
    const [name, plain] = plainOf(format);
    const enc = sopsEncrypt(plain, name, ["--age", age.recipient, ...flags]);
    const expected = oracle(enc, format, { age });
    expect(expected.code, expected.stderr).toBe(0);
    expect((await ours(enc, format, name)).equals(expected.stdout)).toBe(true);
  });

  it("mac_only_encrypted (set in .sops.yaml, as sops allows only there)", async () => {
    const config = `creation_rules:\n  - age: ${age.recipient}\n    encrypted_regex: ^(data|stringData)$\n    mac_only_encrypted: true\n`;
    const enc = sopsEncrypt(SECRET_YAML, "secret.yaml", [], { config });
    expect(enc.toString("utf8")).toContain("mac_only_encrypted: true");
    const expected = oracle(enc, "yaml", { age });
    expect(expected.code, expected.stderr).toBe(0);
    expect((await ours(enc, "yaml", "secret.yaml")).equals(expected.stdout)).toBe(true);
  });

  it("decrypts a whole encrypted Secret object as sops decrypts it to JSON, masking its values", async () => {
    const enc = sopsEncrypt(SECRET_YAML, "secret.yaml", [
      "--age",
      age.recipient,
      "--encrypted-regex",
      "^(data|stringData)$",
    ]);
    const asJson = runSops(["decrypt", "--input-type", "yaml", "--output-type", "json"], enc, {
      SOPS_AGE_KEY: age.identity,
    });
    // The object as the build holds it: the encrypted YAML read as data (sops block included).
    const { parse } = await import("yaml");
    const resource = { obj: parse(enc.toString("utf8")), origin: { file: "/artifact/apps/secret.yaml", index: 0 } };
    const secrets = new Redactor();
    await decryptResources([resource as unknown as Resource], keyring, "/artifact", secrets);
    expect(resource.obj).toEqual(JSON.parse(asJson.stdout.toString("utf8")));
    expect(secrets.redact("leaked hunter2-yaml")).not.toContain("hunter2-yaml");
  });
});

describe("SOPS decryption fails where sops fails, naming the file", () => {
  const encYaml = () => sopsEncrypt(SECRET_YAML, "secret.yaml", ["--age", age.recipient]);

  it("refuses a tampered ciphertext", async () => {
    const enc = encYaml()
      .toString("utf8")
      .replace(/(password: ENC\[AES256_GCM,data:)(.)/, (_, p: string, c: string) => p + (c === "A" ? "B" : "A"));
    expect(oracle(Buffer.from(enc), "yaml", { age }).code).not.toBe(0);
    await expect(ours(Buffer.from(enc), "yaml", "apps/secret.yaml")).rejects.toThrow(
      /^failed to decrypt apps\/secret\.yaml: .*check that spec\.decryption\.secretRef holds/,
    );
  });

  it("refuses a tampered MAC", async () => {
    const enc = encYaml()
      .toString("utf8")
      .replace(/(mac: ENC\[AES256_GCM,data:)(.)/, (_, p: string, c: string) => p + (c === "A" ? "B" : "A"));
    const sops = oracle(Buffer.from(enc), "yaml", { age });
    expect(sops.code).not.toBe(0);
    await expect(ours(Buffer.from(enc), "yaml", "apps/secret.yaml")).rejects.toThrow(/apps\/secret\.yaml/);
  });

  it("refuses values changed under an intact MAC (the MAC check sops makes)", async () => {
    const enc = sopsEncrypt(SECRET_YAML, "secret.yaml", ["--age", age.recipient, "--encrypted-regex", "^stringData$"])
      .toString("utf8")
      .replace("name: db", "name: not-db");
    const sops = oracle(Buffer.from(enc), "yaml", { age });
    expect([sops.code !== 0, sops.stderr]).toEqual([true, expect.stringMatching(/MAC mismatch/)]);
    const err = await ours(Buffer.from(enc), "yaml", "apps/secret.yaml").catch((e: Error) => e);
    expect((err as Error).message).toMatch(/^failed to decrypt apps\/secret\.yaml: .*MAC mismatch/);
    // sops prints both MACs (hashes of the plaintext); the message carries neither.
    expect((err as Error).message).not.toMatch(/[0-9A-F]{64}/);
  });

  it("refuses a file encrypted for someone else", async () => {
    const enc = sopsEncrypt(PLAIN.dotenv[1], "app.env", ["--age", other.recipient]);
    expect(oracle(enc, "dotenv", { age }).code).not.toBe(0);
    const err = await ours(enc, "dotenv", "apps/app.env").catch((e: Error) => e);
    expect((err as Error).message).toMatch(/^failed to decrypt apps\/app\.env: .*Failed to get the data key/);
    expect((err as Error).message).not.toContain("hunter2");
  });
});
