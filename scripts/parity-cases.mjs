// The kustomize parity corpus: one directory per case under test/fixtures/kustomize. A case whose
// name starts with `error-` is one real kustomize must reject; every other case must build. A case
// named `unsupported-` uses a kustomize feature flotilla deliberately refuses: real kustomize builds
// it, and flotilla must fail naming the field (never ignore it silently).
// Shared by scripts/parity.mjs and (later) a vitest test.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Where the corpus lives in this repository. */
export const FIXTURES_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures", "kustomize");

/**
 * Every case directory directly under `root`, sorted by name (code-unit order, so the order does
 * not depend on the locale).
 * @param {string} [root]
 * @returns {{ name: string, dir: string, expectError: boolean, unsupported: boolean }[]}
 */
export function listCases(root = FIXTURES_ROOT) {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => ({
      name,
      dir: join(root, name),
      expectError: name.startsWith("error-"),
      unsupported: name.startsWith("unsupported-"),
    }));
}
