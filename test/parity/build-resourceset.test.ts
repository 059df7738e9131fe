// `flotilla build resourceset` against the operator's own `flux-operator build resourceset` golden files
// (cmd/cli/testdata/build_resourceset in the pinned module zip, read through the resourceset-template
// oracle's `extract`, never copied into this tree): the same arguments must print the same bytes. Also
// the builder's steps testdata (internal/builder/testdata/resourceset/steps*.yaml), object for object.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolsDir } from "../../src/binaries/tools-dir.js";
import { parse as parseYaml, parseAllDocuments } from "yaml";
import type { ResourceSet } from "../../src/api/operator/resourceset.js";
import { renderResourceSet } from "../../src/cli/commands/build-resourceset.js";
import { buildResourceSetSteps } from "../../src/controllers/resourceset/build.js";
import type { InputSet } from "../../src/controllers/resourceset/inputs.js";

const oracle = join(toolsDir(), "bin", "resourceset-template");
const OPERATOR = "github.com/controlplaneio-fluxcd/flux-operator@v0.59.0";
const DATA = "cmd/cli/testdata/build_resourceset/";
const BUILDER_DATA = "internal/builder/testdata/resourceset/";
let dir: string;
let files: Record<string, string>;
let builderFiles: Record<string, string>;

beforeAll(() => {
  if (!existsSync(oracle))
    throw new Error(`${oracle} is missing: run \`bash tools/build.sh resourceset-template\` (or \`npm run tools\`)`);
  const got = spawnSync("go", ["mod", "download", "-json", OPERATOR], {
    encoding: "utf8",
    env: { ...process.env, GOFLAGS: "", GOTOOLCHAIN: "local" },
  });
  if (got.error) throw new Error(`go is needed to download ${OPERATOR}: ${got.error.message}`);
  const info = JSON.parse(got.stdout.replace(/^[^{]*/, "") || "{}") as { Zip?: string; Error?: string };
  if (!info.Zip) throw new Error(`go mod download ${OPERATOR} gave no module zip: ${info.Error ?? got.stderr}`);
  const extract = (prefix: string) =>
    JSON.parse(
      execFileSync(oracle, ["extract", info.Zip!, prefix], { encoding: "utf8", maxBuffer: 64 << 20 }),
    ) as Record<string, string>;
  files = extract(DATA);
  builderFiles = extract(BUILDER_DATA);
  dir = mkdtempSync(join(tmpdir(), "build-rset-"));
  for (const [path, text] of Object.entries(files))
    writeFileSync(join(dir, path.slice(path.lastIndexOf("/") + 1)), text);
});
afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

const read = (name: string) => files[Object.keys(files).find((p) => p.endsWith(`/${name}`))!]!;
const build = (manifest: string, provider?: string) =>
  renderResourceSet({
    manifest: read(manifest),
    namespace: "flux-system",
    inputsFromProvider: provider ? join(dir, provider) : undefined,
  });

describe("flotilla build resourceset (the operator's golden files)", () => {
  it.each([
    ["a standalone ResourceSet", "rset-standalone.yaml", undefined, "golden.yaml"],
    ["Static providers by selector", "rset-with-rsip.yaml", "rsip.yaml", "golden.yaml"],
    ["Static providers permuted", "rset-with-rsip-permuted.yaml", "rsip.yaml", "golden-permuted.yaml"],
    ["Static providers by name", "rset-with-rsip-named.yaml", "rsip-named.yaml", "golden-named.yaml"],
    ["Static providers by labels", "rset-with-rsip-labeled.yaml", "rsip-labeled.yaml", "golden-labeled.yaml"],
    ["document separators in values", "rset-with-rsip-separator.yaml", "rsip-separator.yaml", "golden-separator.yaml"],
    ["spec.steps, each named step under `# step:`", "rset-with-steps.yaml", undefined, "golden-steps.yaml"],
  ])("%s prints what flux-operator prints", (_what, manifest, provider, golden) => {
    expect(build(manifest, provider)).toBe(read(golden));
  });

  it("a ResourceSet reading providers without --inputs-from or --inputs-from-provider is refused as the operator refuses it", () => {
    expect(() => build("rset-with-rsip.yaml")).toThrow(
      "ResourceSet has '.spec.inputsFrom', please provide the inputs with --inputs-from or --inputs-from-provider",
    );
  });

  it("a template error names the ResourceSet, the input set and the template line", () => {
    const manifest = `apiVersion: fluxcd.controlplane.io/v1
kind: ResourceSet
metadata: {name: broken, namespace: apps}
spec:
  inputs: [{id: one, tenant: a}, {id: two}]
  resourcesTemplate: |
    apiVersion: v1
    kind: Namespace
    metadata:
      name: << inputs.tenant >>
`;
    expect(() => renderResourceSet({ manifest, namespace: "flux-system" })).toThrow(
      `ResourceSet/apps/broken: failed to build resourcesTemplate for inputs[1] (id two): template: resourceset:4:11: executing "resourceset" at <inputs>: map has no entry for key "tenant"`,
    );
  });

  it("spec.steps beside spec.resources is refused as the operator's ValidateResourceSetSpec refuses it", () => {
    expect(() => build("rset-steps-and-resources.yaml")).toThrow(
      "spec.steps is mutually exclusive with spec.resources and spec.resourcesTemplate",
    );
  });
});

describe("spec.steps build (the operator's internal/builder steps testdata)", () => {
  const builderRead = (name: string) => builderFiles[Object.keys(builderFiles).find((p) => p.endsWith(`/${name}`))!]!;
  const stepsOf = (name: string) => {
    const r = parseYaml(builderRead(name)) as ResourceSet;
    return buildResourceSetSteps(r.spec, (r.spec.inputs ?? []) as InputSet[]);
  };

  it.each([
    ["steps.yaml", "steps.golden.yaml"],
    ["steps-noinputs.yaml", "steps-noinputs.golden.yaml"],
  ])("%s builds, step by step, the objects of %s", (source, golden) => {
    const want = parseAllDocuments(builderRead(golden))
      .map((d) => d.toJSON() as unknown)
      .filter((d) => d !== null);
    expect(stepsOf(source).flatMap((s) => s.objects)).toEqual(want);
  });

  it("an object in two steps is refused with the operator's exact message", () => {
    expect(() => stepsOf("steps-duplicate.yaml")).toThrow(
      'duplicate resource ConfigMap/apps/app-config in step "deploy", already defined in step "pre-deploy"',
    );
  });
});
