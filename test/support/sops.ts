// The real sops and age-keygen (tools/build.sh sops age-keygen) for tests: age identities made by
// age-keygen (X25519 and post-quantum), files encrypted and decrypted by sops itself — the oracle the
// SOPS parity corpus compares flotilla's decryption with. A missing tool fails loudly.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { locateSops } from "../../src/binaries/sops/index.js";
import { toolsDir } from "../../src/binaries/tools-dir.js";

export interface AgeIdentity {
  /** The key file as age-keygen writes it (comments and the AGE-SECRET-KEY line): an `*.agekey` entry. */
  file: string;
  identity: string;
  recipient: string;
}

export function ageKeygen(): string {
  const bin = join(toolsDir(), "bin", "age-keygen");
  if (!existsSync(bin))
    throw new Error(`age-keygen not found at ${bin}: build it with \`bash tools/build.sh age-keygen\``);
  return bin;
}

/** A new age identity made by the real age-keygen (`-pq` for the post-quantum ML-KEM-768 + X25519 kind). */
export function newAgeIdentity(pq = false): AgeIdentity {
  const r = spawnSync(ageKeygen(), pq ? ["-pq"] : [], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`age-keygen failed: ${r.stderr}`);
  const identity = r.stdout.split("\n").find((l) => l.startsWith("AGE-SECRET-KEY-"))!;
  const y = spawnSync(ageKeygen(), ["-y"], { input: identity, encoding: "utf8" });
  if (y.status !== 0) throw new Error(`age-keygen -y failed: ${y.stderr}`);
  return { file: r.stdout, identity, recipient: y.stdout.trim() };
}

export interface SopsRunResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs the real sops with `args` in an empty HOME (no user keys, no .sops.yaml), `input` on stdin. */
export function runSops(args: string[], input: Uint8Array, env: Record<string, string> = {}): SopsRunResult {
  const home = mkdtempSync(join(tmpdir(), "flotilla-sops-test-"));
  try {
    const r = spawnSync(locateSops(), args, {
      input,
      cwd: home,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, XDG_CONFIG_HOME: home, ...env },
      maxBuffer: 64 << 20,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr.toString("utf8") };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * `sops encrypt` of `plain` (named `filename`, which gives sops the format) with `flags` (recipients,
 * regexes); `config` is a .sops.yaml for what only the configuration sets (mac_only_encrypted), `env`
 * adds e.g. the GNUPGHOME holding an OpenPGP recipient's public key.
 */
export function sopsEncrypt(
  plain: string | Uint8Array,
  filename: string,
  flags: string[],
  o: { config?: string; env?: Record<string, string> } = {},
): Buffer {
  const dir = mkdtempSync(join(tmpdir(), "flotilla-sops-plain-"));
  try {
    // A test's own plaintext fixture: sops picks the format from the name and encrypts to stdout.
    const file = join(dir, filename);
    writeFileSync(file, plain);
    const config = o.config === undefined ? [] : ["--config", join(dir, ".sops.yaml")];
    if (o.config !== undefined) writeFileSync(join(dir, ".sops.yaml"), o.config);
    const r = runSops([...config, "encrypt", ...flags, file], new Uint8Array(), o.env);
    if (r.code !== 0) throw new Error(`sops encrypt ${filename} failed: ${r.stderr}`);
    return r.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
