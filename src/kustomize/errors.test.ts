import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildKustomization } from "./index.js";
import { makeWorkDir } from "../util/work-dir.js";

const fixture = (name: string) => `test/fixtures/kustomize/${name}`;
const failure = (dir: string) =>
  buildKustomization(dir).then(
    () => "built",
    (e: Error) => e.message,
  );

describe("kustomize errors that help", () => {
  it("names the duplicated id, the file and both document indices (the workshop's tenants.yaml case)", async () => {
    expect(await failure(fixture("error-duplicate-resource-id-flux-tenants"))).toBe(
      "kustomization.yaml: may not add resource with an already registered id: Kustomization.v1.kustomize.toolkit.fluxcd.io/tenants.flux-system — it is defined twice, in tenants.yaml (documents 1 and 2); remove one of them",
    );
  });

  it("names the missing resource path", async () => {
    expect(await failure(fixture("error-missing-resource-path"))).toMatch(
      /^kustomization\.yaml: resources entry "does-not-exist\.yaml": no such file or directory/,
    );
  });

  it("gives file, document, line and column of malformed YAML", async () => {
    expect(await failure(fixture("error-malformed-yaml-resource"))).toMatch(
      /^broken\.yaml: document 1: invalid YAML at line 7, column 3: /,
    );
  });

  it("refuses a file outside the kustomization root with kustomize's meaning", async () => {
    expect(await failure(fixture("error-file-outside-kustomization-root"))).toMatch(
      /resources entry "\.\.\/outside\.yaml" is outside the kustomization root .*: security; file '.*outside\.yaml' is not in or below/,
    );
  });

  it("names a strategic merge patch whose target matches nothing", async () => {
    expect(await failure(fixture("error-smp-patch-matches-nothing"))).toContain(
      'no resource matches strategic merge patch "ConfigMap.v1.[noGrp]/not-there.[noNs]"',
    );
  });

  it("refuses remote bases, saying to vendor them", async () => {
    const dir = makeWorkDir("flotilla-remote-");
    writeFileSync(`${dir}/kustomization.yaml`, "resources:\n- https://github.com/example/repo//deploy?ref=v1\n");
    expect(await failure(dir)).toContain(
      "is a remote base, and flotilla never fetches remote bases: vendor it into the repository",
    );
  });

  it("refuses unknown and unsupported fields by name", async () => {
    expect(await failure(fixture("error-unknown-kustomization-field"))).toMatch(
      /unknown field "[^"]+" in kustomization/,
    );
    const dir = makeWorkDir("kustomize-validators-");
    writeFileSync(join(dir, "kustomization.yaml"), "validators:\n- check.yaml\n");
    expect(await failure(dir)).toContain('field "validators" is not supported');
  });

  it("never prints a secretGenerator literal that lacks '=' (a mistyped secret), but does a configMapGenerator's", async () => {
    const dir = makeWorkDir("kustomize-literal-");
    writeFileSync(
      join(dir, "kustomization.yaml"),
      "secretGenerator:\n- name: s\n  literals:\n  - token:hunter2-0451\n",
    );
    const message = await failure(dir);
    expect(message).toContain("invalid literal source (not shown: a secretGenerator literal), expected key=value");
    expect(message).not.toContain("hunter2");
    writeFileSync(join(dir, "kustomization.yaml"), "configMapGenerator:\n- name: c\n  literals:\n  - color:blue\n");
    expect(await failure(dir)).toContain("invalid literal source color:blue, expected key=value");
  });
});

describe("Flux's generated kustomization", () => {
  it("builds every manifest below a directory without kustomization file, taking nested kustomizations whole", async () => {
    const out = await buildKustomization("test/fixtures/generate-kustomization", { generateKustomization: true });
    expect(out.match(/name: \S+/g)).toEqual(["name: a", "name: b-c", "name: s"]);
    await expect(buildKustomization("test/fixtures/generate-kustomization")).rejects.toThrow(
      "unable to find one of 'kustomization.yaml'",
    );
  });

  it("fails naming a YAML file it cannot read (a syntax error, an alias bomb) instead of leaving it out", async () => {
    const dir = makeWorkDir("kustomize-generate-");
    writeFileSync(join(dir, "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n");
    writeFileSync(join(dir, "broken.yaml"), "a: [\n");
    writeFileSync(join(dir, "notes.json"), "{ // not JSON\n");
    await expect(buildKustomization(dir, { generateKustomization: true })).rejects.toThrow(
      /^failed to decode Kubernetes YAML from broken\.yaml: document 1: invalid YAML at line \d+, column \d+: /,
    );
  });

  it("fails on a YAML file that is not Kubernetes objects (a Helm values file), as Flux does, naming it", async () => {
    const dir = makeWorkDir("kustomize-generate-");
    writeFileSync(join(dir, "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n");
    writeFileSync(join(dir, "values.yaml"), "replicaCount: 2\n");
    await expect(buildKustomization(dir, { generateKustomization: true })).rejects.toThrow(
      /^failed to decode Kubernetes YAML from values\.yaml: missing Resource metadata/,
    );
  });

  it("reads .yaml and .yml only (a .json manifest is not included) and dot-files too, as Flux's scan does", async () => {
    const dir = makeWorkDir("kustomize-generate-");
    const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
    writeFileSync(join(dir, "a.yaml"), cm("a"));
    writeFileSync(join(dir, ".hidden.yaml"), cm("hidden"));
    writeFileSync(
      join(dir, "j.json"),
      JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "j" } }),
    );
    writeFileSync(join(dir, "empty.yaml"), "# nothing here yet\n");
    const out = await buildKustomization(dir, { generateKustomization: true });
    expect(out.match(/name: \S+/g)).toEqual(["name: a", "name: hidden"]);
  });
});
