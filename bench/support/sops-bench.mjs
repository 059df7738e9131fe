// SOPS fixtures for the controller benchmarks: an age identity made by the real age-keygen and
// Secret manifests encrypted by the real sops (tools/build.sh sops age-keygen), as a repository keeps
// them. A missing tool fails loudly.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const { toolsDir } = await import("../../dist/binaries/tools-dir.js");
const { locateSops } = await import("../../dist/binaries/sops/index.js");

function run(bin, args, o = {}) {
  const r = spawnSync(bin, args, { encoding: "utf8", maxBuffer: 16 << 20, ...o });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(" ")} failed: ${r.stderr || r.error}`);
  return r.stdout;
}

/** A new X25519 age identity: { file (the key file's text), recipient }. */
export function benchAgeIdentity() {
  const keygen = join(toolsDir(), "bin", "age-keygen");
  if (!existsSync(keygen)) throw new Error(`age-keygen not found at ${keygen}: run \`bash tools/build.sh age-keygen\``);
  const file = run(keygen, []);
  const identity = file.split("\n").find((l) => l.startsWith("AGE-SECRET-KEY-"));
  return { file, recipient: run(keygen, ["-y"], { input: identity }).trim() };
}

/** A Secret manifest `name` holding `data`, its data encrypted by sops for `recipient` (encrypted_regex, as Flux's guide). */
export function encryptedSecret(name, data, recipient) {
  const home = mkdtempSync(join(tmpdir(), "flotilla-bench-sops-"));
  try {
    const plain = join(home, "secret.yaml");
    // The benchmark's own synthetic fixture (no real secret): sops reads it from a file to know the format.
    writeFileSync(plain, JSON.stringify({ apiVersion: "v1", kind: "Secret", metadata: { name }, stringData: data }));
    return run(
      locateSops(),
      [
        "encrypt",
        "--age",
        recipient,
        "--encrypted-regex",
        "^(data|stringData)$",
        "--input-type",
        "json",
        "--output-type",
        "yaml",
        plain,
      ],
      { cwd: home, env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: home } },
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
