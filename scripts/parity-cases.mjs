// The kustomize parity corpus: one directory per case under test/fixtures/kustomize. A case whose
// name starts with `error-` is one real kustomize must reject; every other case must build. A case
// named `unsupported-` uses a kustomize feature flotilla deliberately refuses: real kustomize builds
// it, and flotilla must fail naming the field (never ignore it silently). A case holding a file
// named `enable-helm` is built with helm enabled on both sides (kustomize --enable-helm
// --helm-command <the pinned helm>, flotilla's enableHelm with the same binary).
// Shared by scripts/parity.mjs and test/parity/kustomize-parity.test.ts.
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Where the corpus lives in this repository. */
export const FIXTURES_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures", "kustomize");

/** The file that marks a case to be built with helm enabled. */
export const HELM_MARKER = "enable-helm";

/**
 * The arguments of `kustomize build` for a case; `helm` is the helm binary to use.
 * @param {{ dir: string, enableHelm: boolean }} c
 * @param {string} helm
 */
export function kustomizeArgs(c, helm) {
  return c.enableHelm ? ["build", "--enable-helm", "--helm-command", helm, c.dir] : ["build", c.dir];
}

/**
 * Every case directory directly under `root`, sorted by name (code-unit order, so the order does
 * not depend on the locale).
 * @param {string} [root]
 * @returns {{ name: string, dir: string, expectError: boolean, unsupported: boolean, enableHelm: boolean }[]}
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
      enableHelm: existsSync(join(root, name, HELM_MARKER)),
    }));
}
