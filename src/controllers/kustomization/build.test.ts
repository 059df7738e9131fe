import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { KustomizationSpec } from "../../api/kustomize/kustomization.js";
import { buildKustomizationObjects } from "./build.js";
import { makeWorkDir } from "../../util/work-dir.js";

let root: string;
const spec = (extra: Partial<KustomizationSpec>): KustomizationSpec => ({
  sourceRef: { kind: "GitRepository", name: "r" },
  interval: "10m",
  prune: true,
  path: "./app",
  ...extra,
});
function artifact(files: Record<string, string>): string {
  root = makeWorkDir("ks-build-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
afterEach(() => rmSync(root, { recursive: true, force: true }));

const CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  greeting: ${greeting:=hello}\n";

describe("building a Kustomization's objects", () => {
  const files = {
    "app/kustomization.yaml": "resources:\n- cm.yaml\n",
    "app/cm.yaml": CM,
    "present/kustomization.yaml":
      "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonLabels:\n  component: present\n",
  };

  it("ignoreMissingComponents drops the spec's components that are not in the source", () => {
    const dir = artifact(files);
    const [cm] = buildKustomizationObjects(
      dir,
      spec({ components: ["../present", "../missing"], ignoreMissingComponents: true }),
      {},
    );
    expect(cm!.metadata.labels).toEqual({ component: "present" });
    expect(() => buildKustomizationObjects(dir, spec({ components: ["../present", "../missing"] }), {})).toThrow(
      /missing/,
    );
  });

  it("buildMetadata annotates each object with its origin, as Flux's generated kustomization asks kustomize to", () => {
    const dir = artifact(files);
    const [cm] = buildKustomizationObjects(dir, spec({ buildMetadata: ["originAnnotations"] }), {});
    expect(cm!.metadata.annotations).toEqual({ "config.kubernetes.io/origin": "path: cm.yaml\n" });
    const [plain] = buildKustomizationObjects(dir, spec({}), {});
    expect(plain!.metadata.annotations).toBeUndefined();
  });

  it("substituteStrategy Always substitutes even when no variable is defined; WithVariables leaves the text", () => {
    const dir = artifact(files);
    const data = (extra: Partial<KustomizationSpec>) => buildKustomizationObjects(dir, spec(extra), {})[0]!.data;
    expect(data({ postBuild: { substituteStrategy: "Always" } })).toEqual({ greeting: "hello" });
    expect(data({ postBuild: { substituteStrategy: "WithVariables" } })).toEqual({ greeting: "${greeting:=hello}" });
  });
});
