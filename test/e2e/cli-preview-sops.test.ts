// `flotilla build|diff kustomization` of SOPS-encrypted manifests, as a user runs them (the built CLI,
// a real process) against a Kustomization the real controller decrypted and applied: decrypted locally
// with --decryption-key (an age-keygen identity file) or the in-cluster key Secret, values masked as
// flux's diff masks them; without a usable key, one message naming the file and the flag.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { runCli } from "../support/cli.js";
import { plane } from "../support/fleet-context.js";
import { type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";
import { type AgeIdentity, newAgeIdentity, sopsEncrypt } from "../support/sops.js";

let h: KustomizeHarness;
let age: AgeIdentity;
let work: string;
let keyFile: string;
const PASSWORD = "cli-hunter2-password";
const TOKEN = "cli-env-token-42";
const cli = (...args: string[]) => runCli([...args, "-n", h.ns, "--kubeconfig", plane("management").kubeconfig]);

const secretYaml = (password: string) =>
  `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\nstringData:\n  password: ${password}\n`;
const KUSTOMIZATION =
  "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - db.enc.yaml\n" +
  "secretGenerator:\n  - name: app-env\n    envs:\n      - app.enc.env\n    options:\n      disableNameSuffixHash: true\n";
const files = (password: string, token: string) => ({
  "kustomization.yaml": KUSTOMIZATION,
  "db.enc.yaml": sopsEncrypt(secretYaml(password), "db.yaml", [
    "--age",
    age.recipient,
    "--encrypted-regex",
    "^(data|stringData)$",
  ]).toString("utf8"),
  "app.enc.env": sopsEncrypt(`API_TOKEN=${token}\n`, "app.env", ["--age", age.recipient]).toString("utf8"),
});

/** A local checkout of the app directory holding `f`. */
function checkout(name: string, f: Record<string, string>): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(f)) writeFileSync(join(dir, file), text);
  return dir;
}

let same: string;
beforeAll(async () => {
  age = newAgeIdentity();
  work = makeWorkDir("flotilla-preview-sops-");
  keyFile = join(work, "age.agekey");
  writeFileSync(keyFile, age.file, { mode: 0o600 });
  h = await startKustomizeHarness({ prefix: "cli-sops" });
  await h.mgmt.client.create(pathOf(USED_KINDS.Secret, h.ns), {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "sops-age", namespace: h.ns },
    stringData: { "age.agekey": age.file },
  });
  const committed = files(PASSWORD, TOKEN);
  same = checkout("same", committed);
  await h.commit(Object.fromEntries(Object.entries(committed).map(([f, t]) => [`app/${f}`, t])), "encrypted");
  const decryption = { provider: "sops", secretRef: { name: "sops-age" } };
  await h.createKs("app", { path: "./app", targetNamespace: h.ns, decryption });
  await h.createKs("nokey", { path: "./app", targetNamespace: h.ns, suspend: true, decryption: { provider: "sops" } });
  await h.createKs("missing", {
    path: "./app",
    targetNamespace: h.ns,
    suspend: true,
    decryption: { provider: "sops", secretRef: { name: "not-there" } },
  });
  await h.waitReady("app");
}, 180_000);
afterAll(() => h?.stop());

const noPlaintext = (out: string) => {
  for (const p of [PASSWORD, TOKEN, "new-cli-password", age.identity]) expect(out).not.toContain(p);
};

describe("flotilla build|diff kustomization with SOPS", () => {
  it("diff decrypts with --decryption-key: exit 0 when the decrypted manifests are what was applied", async () => {
    const r = await cli("diff", "ks", "app", "--path", same, "--decryption-key", keyFile);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
  });

  it("diff without --decryption-key decrypts with the in-cluster key Secret the user may read", async () => {
    const r = await cli("diff", "ks", "app", "--path", same);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });

  it("a changed encrypted value shows as drifted, masked as flux masks it", async () => {
    const dir = checkout("changed", files("new-cli-password", TOKEN));
    const r = await cli("diff", "ks", "app", "--path", dir, "--decryption-key", keyFile);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe(
      `► Secret/${h.ns}/db drifted\n\ndata.password\n  ± value change\n    - *** (before)\n    + *** (after)\n\n`,
    );
    noPlaintext(r.stdout + r.stderr);
  });

  it("build decrypts with --decryption-key and prints the Secrets with their values masked, no sops block", async () => {
    const r = await cli("build", "ks", "app", "--path", same, "--decryption-key", keyFile);
    expect(r.code, r.stderr).toBe(0);
    const secrets = parseAllDocuments(r.stdout).map((d) => d.toJS() as Record<string, unknown>);
    const shown = secrets.map((s) => [s.kind, (s.metadata as { name: string }).name, s.stringData ?? s.data]);
    expect(shown.sort()).toEqual([
      ["Secret", "app-env", { API_TOKEN: "**SECRET**" }],
      ["Secret", "db", { password: "**SECRET**" }],
    ]);
    expect(r.stdout).not.toMatch(/^sops:/m);
    expect(r.stdout).not.toContain("ENC[");
    noPlaintext(r.stdout + r.stderr);
  });

  it("without a usable key, one message naming the encrypted file and --decryption-key", async () => {
    const none = await cli("build", "ks", "nokey", "--path", same);
    expect(none.code).not.toBe(0);
    expect(none.stderr.trim().split("\n")).toEqual([
      `✗ app.enc.env is SOPS-encrypted and Kustomization '${h.ns}/nokey' names no decryption Secret ` +
        "(spec.decryption.secretRef): pass --decryption-key <age identity file | OpenPGP private key .asc> to decrypt it locally",
    ]);
    const missing = await cli("diff", "ks", "missing", "--path", same);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      new RegExp(
        `^✗ app\\.enc\\.env is SOPS-encrypted and the key Secret cannot be used: decryption Secret '${h.ns}/not-there' not found.*pass --decryption-key `,
      ),
    );
  });

  it("a wrong key, or a file that is no key, fails naming the file and what to do", async () => {
    const otherKey = join(work, "other.agekey");
    writeFileSync(otherKey, newAgeIdentity().file);
    const wrong = await cli("diff", "ks", "app", "--path", same, "--decryption-key", otherKey);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /^✗ failed to decrypt app\.enc\.env: .*; check that --decryption-key names the age or OpenPGP key the file was encrypted for\n$/,
    );
    const notAKey = join(work, "notes.txt");
    writeFileSync(notAKey, "not-a-key-but-private\n");
    const bad = await cli("build", "ks", "app", "--path", same, "--decryption-key", notAKey);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(`--decryption-key ${notAKey}: not an age identity file`);
    expect(bad.stderr).not.toContain("not-a-key-but-private");
    noPlaintext(wrong.stdout + wrong.stderr + bad.stdout + bad.stderr);
  });
});
