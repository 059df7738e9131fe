// The kustomize parity corpus: one directory per case under test/fixtures/kustomize. A case whose
// name starts with `error-` is one real kustomize must reject; every other case must build. A case
// named `unsupported-` uses a kustomize feature flotilla deliberately refuses: real kustomize builds
// it, and flotilla must fail naming the field (never ignore it silently). A case holding a file
// named `enable-helm` is built with helm enabled on both sides (kustomize --enable-helm
// --helm-command <the pinned helm>, flotilla's enableHelm with the same binary).
// An `error-` case holds `expected-error.json` (ERROR_EXPECTATION): both tools failing is not enough,
// they must fail for the same problem — see errorMismatches.
// Shared by scripts/parity.mjs and test/parity/kustomize-parity.test.ts.
import { existsSync, readdirSync, readFileSync } from "node:fs";
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

/** Where kustomize's own test suite lives as cases (scripts/krusty-cases.sh writes it). */
export const KRUSTY_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures", "kustomize-krusty");

/**
 * The cases extracted from kustomize's api/krusty tests: one directory each with case.json (source file,
 * test, build directory, whether it must fail) and files/. `dir` is the directory to build.
 * @param {string} [root]
 * @returns {{ name: string, dir: string, caseDir: string, expectError: boolean, unsupported: false, enableHelm: boolean, source: string, test: string }[]}
 */
export function listKrustyCases(root = KRUSTY_ROOT) {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => {
      const caseDir = join(root, name);
      const c = JSON.parse(readFileSync(join(caseDir, "case.json"), "utf8"));
      return {
        name,
        dir: join(caseDir, "files", c.dir),
        caseDir,
        expectError: c.expectError,
        unsupported: false,
        // A test run with plugins on inflates helm charts (the only plugins extracted).
        enableHelm: (c.options ?? []).includes("--enable-helm"),
        source: c.source,
        test: c.test,
      };
    });
}

/**
 * kustomize cases where flotilla deliberately differs (docs/decisions/0022): it refuses, naming the
 * field, what kustomize silently ignores. Each must still fail with this message while kustomize builds.
 * @type {Record<string, RegExp>}
 */
export const KRUSTY_DELIBERATE = {
  // A ConfigMapGenerator configuration with a `labels` field: kustomize drops it unread.
  "namereference--TestEmptyFieldSpecValue": /unknown field "labels" in a ConfigMapGenerator configuration/,
};

/** The file of an `error-` case saying which problem both tools must report. */
export const ERROR_EXPECTATION = "expected-error.json";

/**
 * The problems an `error-` case can be about. kustomize and flotilla word them differently (flotilla
 * names the file and entry); the category is what the two phrases of a case have in common.
 */
export const ERROR_CATEGORIES = {
  "duplicate-id": "two objects end up with the same kind, name and namespace",
  "generator-behavior": "a generator's create/merge/replace contradicts what already exists",
  "generator-duplicate-key": "a generator repeats a key",
  "missing-file": "a listed file or directory does not exist",
  "kustomization-file": "a directory has no kustomization file, or more than one",
  "wrong-kind": "a Component listed as a resource, or a Kustomization as a component",
  "load-restriction": "a file outside the kustomization root",
  cycle: "a kustomization includes itself",
  "invalid-yaml": "YAML that does not parse",
  "not-json": "YAML that parses but has no JSON form (non-string keys, infinity)",
  "invalid-resource": "an object without kind or name",
  "unknown-field": "a kustomization field that does not exist",
  "field-type": "a kustomization field of the wrong type",
  "patch-no-match": "a patch whose target matches no resource",
  "empty-patch": "a patchesStrategicMerge file with nothing in it",
  "sort-options": "sortOptions that kustomize refuses (an unknown order, legacy options with fifo)",
  "empty-kustomization": "a kustomization (or component) with no field besides apiVersion and kind",
  "json-patch": "a JSON 6902 operation that does not apply",
  "invalid-regex": "a target selector that is not a valid regular expression",
  "replacement-source": "a replacement source that selects nothing",
  "replacement-path":
    "a replacement's field path cannot be walked as kyaml walks it (a selector without =, a wildcard where kyaml has none)",
  "replacement-type": "a replacement value that does not fit the target field's type",
  "replicas-no-match": "a replicas entry that matches no workload",
  helm: "helmCharts that cannot be rendered",
  "patch-ambiguous": "a strategic merge patch whose id matches more than one resource",
  "ambiguous-reference": "a name reference that several renamed objects could satisfy",
  "blank-subject-namespace": "a RoleBinding ServiceAccount subject with a blank namespace",
  plugin: "a generators/transformers configuration kustomize cannot load",
  openapi: "an openapi field kustomize refuses (both path and version, a version not built in)",
  vars: "a var that cannot be bound or resolved (no object, several objects, declared twice)",
  unsupported: "a feature flotilla deliberately refuses, so it fails before reaching kustomize's problem",
};

/**
 * The expectation of an `error-` case: its category, a phrase real kustomize's stderr must contain,
 * and one flotilla's error message must contain. Throws when the file is missing or malformed.
 * @param {{ name: string, dir: string, caseDir?: string }} c
 * @returns {{ category: string, kustomize: string, flotilla: string }}
 */
export function errorExpectation(c) {
  const file = join(c.caseDir ?? c.dir, ERROR_EXPECTATION);
  if (!existsSync(file)) throw new Error(`${c.name}: an error- case needs ${ERROR_EXPECTATION}`);
  const e = JSON.parse(readFileSync(file, "utf8"));
  for (const field of ["category", "kustomize", "flotilla"]) {
    if (typeof e[field] !== "string" || e[field] === "")
      throw new Error(`${c.name}/${ERROR_EXPECTATION}: "${field}" must be a non-empty string`);
  }
  if (!Object.hasOwn(ERROR_CATEGORIES, e.category))
    throw new Error(`${c.name}/${ERROR_EXPECTATION}: unknown category "${e.category}" (see ERROR_CATEGORIES)`);
  return { category: e.category, kustomize: e.kustomize, flotilla: e.flotilla };
}

/**
 * How an `error-` case's two failures differ from its expectation; empty when both report its problem.
 * A flotilla error that is not a FlotillaError (a TypeError, a stack overflow) is a crash, never a match.
 * @param {{ category: string, kustomize: string, flotilla: string }} expected
 * @param {{ status: number | null, stderr: string }} real
 * @param {{ ok: true } | { ok: false, message: string, isFlotillaError: boolean }} ours
 * @returns {string[]}
 */
export function errorMismatches(expected, real, ours) {
  const problems = [];
  if (real.status === 0) problems.push("real kustomize builds it");
  else if (!real.stderr.includes(expected.kustomize))
    problems.push(`real kustomize fails without ${JSON.stringify(expected.kustomize)}:\n${real.stderr.trim()}`);
  if (ours.ok) problems.push("flotilla builds it");
  else {
    if (!ours.isFlotillaError) problems.push(`flotilla crashes instead of reporting the problem: ${ours.message}`);
    if (!ours.message.includes(expected.flotilla))
      problems.push(`flotilla fails without ${JSON.stringify(expected.flotilla)}:\n${ours.message}`);
  }
  return problems;
}

/**
 * Throws, saying how to build it, unless the pinned tool is there: a missing oracle must fail the
 * comparison, never skip or pass it.
 * @param {string} name
 * @param {string} path
 */
export function requireTool(name, path) {
  if (!existsSync(path))
    throw new Error(
      `${name} not found at ${path}: build the pinned tools with \`npm run tools\` (bash tools/build.sh)`,
    );
}
