// `flotilla tree kustomization` as a user runs it: flux's tree goldens byte for byte for flux's test
// objects, a HelmRelease expanded from its inventory, and the tree of a Kustomization the real
// controller reconciled equal to its inventory.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { runCli } from "../support/cli.js";
import { createFluxObjects, fluxGolden } from "../support/flux-cli-fixtures.js";
import { plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

const mgmt = planeCluster("management");
const tree = (ns: string, ...args: string[]) =>
  runCli(["tree", ...args, `-n=${ns}`, "--kubeconfig", plane("management").kubeconfig]);
let ns: string;
let h: KustomizeHarness;

beforeAll(async () => {
  ns = await testNamespace(mgmt.client, "cli-tree");
  await createFluxObjects(mgmt, "tree/kustomizations.yaml", ns);
  h = await startKustomizeHarness({ prefix: "cli-tree-live" });
}, 120_000);
afterAll(() => h?.stop());

describe("flotilla tree kustomization", () => {
  it.each([
    ["kustomization flux-system", "tree/tree.golden"],
    ["kustomization flux-system --compact", "tree/tree-compact.golden"],
    ["kustomization empty", "tree/tree-empty.golden"],
  ])("prints `tree %s` as flux does", async (args, file) => {
    const r = await tree(ns, ...args.split(" "));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(fluxGolden(file, ns));
  });

  it("expands a HelmRelease with the objects of its release, and prints -o json in flux's shape", async () => {
    const hrInventory = { entries: [{ id: "apps_podinfo_apps_Deployment", v: "v1" }] };
    await mgmt.client.create(pathOf(SERVED_KINDS.HelmRelease, ns), {
      apiVersion: "helm.toolkit.fluxcd.io/v2",
      kind: "HelmRelease",
      metadata: { name: "podinfo", namespace: ns },
      spec: { interval: "5m", chart: { spec: { chart: "podinfo", sourceRef: { kind: "HelmRepository", name: "x" } } } },
    });
    await mgmt.client.patch(pathOf(SERVED_KINDS.HelmRelease, ns, "podinfo", "status"), "merge", {
      status: { inventory: hrInventory },
    });
    await mgmt.client.create(pathOf(SERVED_KINDS.Kustomization, ns), {
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      kind: "Kustomization",
      metadata: { name: "apps", namespace: ns },
      spec: { interval: "5m", path: "./apps", prune: true, sourceRef: { kind: "GitRepository", name: "x" } },
    });
    await mgmt.client.patch(pathOf(SERVED_KINDS.Kustomization, ns, "apps", "status"), "merge", {
      status: { inventory: { entries: [{ id: `${ns}_podinfo_helm.toolkit.fluxcd.io_HelmRelease`, v: "v2" }] } },
    });
    const text = await tree(ns, "ks", "apps");
    expect(text.stdout).toBe(
      `Kustomization/${ns}/apps\n└── HelmRelease/${ns}/podinfo\n    └── Deployment/apps/podinfo\n\n`,
    );
    const json = JSON.parse((await tree(ns, "ks", "apps", "-o", "json")).stdout) as unknown;
    expect(json).toEqual({
      resource: {
        Namespace: ns,
        Name: "apps",
        GroupKind: { Group: "kustomize.toolkit.fluxcd.io", Kind: "Kustomization" },
      },
      resources: [
        {
          resource: {
            Namespace: ns,
            Name: "podinfo",
            GroupKind: { Group: "helm.toolkit.fluxcd.io", Kind: "HelmRelease" },
          },
          resources: [
            { resource: { Namespace: "apps", Name: "podinfo", GroupKind: { Group: "apps", Kind: "Deployment" } } },
          ],
        },
      ],
    });
  });

  it("shows exactly the inventory of a Kustomization the controller applied", async () => {
    await h.commit(
      { "app/a.yaml": configMap("tree-a", h.ns), "app/b.yaml": configMap("tree-b", h.ns) },
      "two ConfigMaps",
    );
    await h.createKs("app", { path: "./app" });
    const ks = await h.waitReady("app");
    const r = await tree(h.ns, "ks", "app");
    const lines = r.stdout
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((l) => l.slice(4));
    expect(lines).toEqual(
      ks.status!.inventory!.entries.map((e) => {
        const [n, name, , kind] = e.id.split("_");
        return n ? `${kind}/${n}/${name}` : `${kind}/${name}`;
      }),
    );
    expect(lines).toEqual([`ConfigMap/${h.ns}/tree-a`, `ConfigMap/${h.ns}/tree-b`]);
  });
});
