// flux2-multi-tenancy's staging overlay as its README writes it: a `kustomize.toolkit.fluxcd.io/v1beta1`
// patch over the v1 Kustomization that `flux create kustomization --export` writes today. kustomize
// (and flux) fail the build; flotilla patches the one object (docs/decisions/0020).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildKustomization } from "../build.js";
import { makeWorkDir } from "../../util/work-dir.js";

let root: string;
function tree(files: Record<string, string>): string {
  root = makeWorkDir("flux-version-patch-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
afterEach(() => rmSync(root, { recursive: true, force: true }));

const SYNC = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: dev-team
  namespace: apps
spec:
  interval: 1m0s
  path: ./
  prune: false
  sourceRef:
    kind: GitRepository
    name: dev-team
`;
const overlay = (apiVersion: string) => ({
  "base/sync.yaml": SYNC,
  "base/kustomization.yaml": "resources:\n- sync.yaml\n",
  "staging/patch.yaml": `apiVersion: ${apiVersion}\nkind: Kustomization\nmetadata:\n  name: dev-team\n  namespace: apps\nspec:\n  path: ./staging\n`,
  "staging/kustomization.yaml": "resources:\n- ../base\npatchesStrategicMerge:\n- patch.yaml\n",
});

describe("a strategic merge patch naming an older version of a Flux kind", () => {
  it("patches the object at the version it is written in, which it keeps", async () => {
    const dir = tree(overlay("kustomize.toolkit.fluxcd.io/v1beta1"));
    const out = await buildKustomization(join(dir, "staging"));
    expect(out).toContain("apiVersion: kustomize.toolkit.fluxcd.io/v1\n");
    expect(out).toContain("  path: ./staging\n");
    expect(out).not.toContain("v1beta1");
  });

  it("is still refused, as kustomize refuses it, for a kind outside Flux's groups", async () => {
    const dir = tree({
      ...overlay("kustomize.toolkit.fluxcd.io/v1beta1"),
      "staging/patch.yaml":
        "apiVersion: apps/v1beta1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n",
      "base/sync.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n",
    });
    await expect(buildKustomization(join(dir, "staging"))).rejects.toThrow(/no resource matches strategic merge patch/);
  });
});
