// No silent fallbacks for a Kustomization: a Flux field flotilla does not implement stalls it by name
// and applies nothing anywhere (kubeConfig.configMapRef once sent a remote cluster's objects to the
// management cluster); a field that is in no Flux CRD is pruned by the API server, as with Flux's
// CRDs, while v1beta patches survive conversion to the stored v1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, planeCluster } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

let h: KustomizeHarness;
const KS = "/apis/kustomize.toolkit.fluxcd.io";
const conditionOf = async (name: string, type: string) =>
  (await h.getKs(name)).status?.conditions?.find((c) => c.type === type);
const configMapIn = (name: string, namespace = h.ns) =>
  h.mgmt.get({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace } });

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "unsupported" });
  await h.commit(
    {
      "remote-app/cm.yaml": configMap("meant-for-remote", h.ns),
      "sibling/cm.yaml": configMap("sibling-app", h.ns),
      "plain/cm.yaml": configMap("plain-app", h.ns),
      "old/cm.yaml": configMap("old-app", h.ns),
      "dep/cm.yaml": configMap("dep-app", h.ns),
      "remote/cm.yaml": configMap(`${h.ns}-remote-app`, "default"),
    },
    "unsupported-field cases",
  );
});

afterAll(async () => {
  await h?.stop();
});

describe("Kustomization fields flotilla does not implement", () => {
  it("kubeConfig.configMapRef is Stalled naming the field, and nothing is applied to the management cluster", async () => {
    await h.createKs("via-configmap", { path: "./remote-app", kubeConfig: { configMapRef: { name: "eks-cluster" } } });
    const ready = await h.waitNotReady("via-configmap", "UnsupportedField");
    expect(ready.message).toBe(
      "spec.kubeConfig.configMapRef is not supported by flotilla: put the remote cluster's kubeconfig in a Secret " +
        "and name it in spec.kubeConfig.secretRef (flotilla does not get cluster credentials from a cloud provider " +
        "or workload identity)",
    );
    expect((await conditionOf("via-configmap", "Stalled"))?.status).toBe("True");

    // Positive evidence that nothing came of it: a reconcile of it that we asked for was handled, and
    // a sibling created afterwards applied, yet the stalled one's ConfigMap is not on this cluster.
    await h.reconcileNow("via-configmap");
    await h.createKs("sibling", { path: "./sibling" });
    await h.waitReady("sibling");
    expect(await configMapIn("sibling-app")).toBeDefined();
    expect(await configMapIn("meant-for-remote")).toBeUndefined();
    expect((await h.getKs("via-configmap")).status?.inventory?.entries ?? []).toEqual([]);
  });

  it("a remote Kustomization switched to configMapRef and deleted never prunes on the management cluster", async () => {
    const tenant1 = planeCluster("tenant1");
    const name = `${h.ns}-remote-app`;
    const ref = { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "default" } };
    const secret = await h.copyAdminKubeconfig("tenant1");
    await h.createKs("switched", {
      path: "./remote",
      timeout: "20s",
      kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
    });
    await h.waitReady("switched");
    expect(await tenant1.get(ref)).toBeDefined();
    // A decoy on the management cluster, owned as a fallback would have owned it: prune would take it.
    const labels = { "kustomize.toolkit.fluxcd.io/name": "switched", "kustomize.toolkit.fluxcd.io/namespace": h.ns };
    await h.mgmt.client.create("/api/v1/namespaces/default/configmaps", {
      metadata: { name, labels },
      data: { a: "1" },
    });
    try {
      await h.mgmt.client.patch(h.ksPath("switched"), "merge", {
        spec: { kubeConfig: { secretRef: null, configMapRef: { name: "eks-cluster" } } },
      });
      await h.waitNotReady("switched", "UnsupportedField");
      await h.mgmt.client.delete(h.ksPath("switched"));
      await eventually(
        "the Kustomization released after spec.timeout",
        () =>
          h.getKs("switched").then(
            () => false,
            () => true,
          ),
        90_000,
      );
      expect(await h.mgmt.get(ref)).toBeDefined();
      expect(await tenant1.get(ref)).toBeDefined();
    } finally {
      await h.mgmt.client.delete(`/api/v1/namespaces/default/configmaps/${name}`).catch(() => {});
      await tenant1.client.delete(`/api/v1/namespaces/default/configmaps/${name}`).catch(() => {});
    }
  });

  it("dependsOn[].readyExpr judges the dependency by CEL instead of its Ready condition", async () => {
    const version = (v: string) => ({ metadata: { annotations: { "app/version": v } } });
    await h.createKs("versioned-dep", { path: "./plain", suspend: true });
    await h.mgmt.client.patch(h.ksPath("versioned-dep"), "merge", version("1"));
    await h.mgmt.client.create(`${KS}/v1/namespaces/${h.ns}/kustomizations`, {
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      kind: "Kustomization",
      metadata: { name: "ready-expr", namespace: h.ns, ...version("2").metadata },
      spec: {
        interval: "10m",
        prune: true,
        path: "./dep",
        sourceRef: { kind: "GitRepository", name: "platform" },
        dependsOn: [
          {
            name: "versioned-dep",
            readyExpr: "self.metadata.annotations['app/version'] == dep.metadata.annotations['app/version']",
          },
        ],
      },
    });
    const waiting = await h.waitNotReady("ready-expr", "DependencyNotReady");
    expect(waiting.message).toBe(`dependency '${h.ns}/versioned-dep' is not ready according to readyExpr eval`);

    // The dependency is suspended and was never Ready: only the expression lets this one go.
    await h.mgmt.client.patch(h.ksPath("versioned-dep"), "merge", version("2"));
    await h.reconcileNow("ready-expr");
    await h.waitReady("ready-expr");
  });

  it("a readyExpr naming an unknown variable is Stalled (InvalidCELExpression)", async () => {
    await h.createKs("bad-ready-expr", {
      path: "./plain",
      dependsOn: [{ name: "sibling", readyExpr: "self.metadata.generation == deps.metadata.generation" }],
    });
    const stalled = await h.waitNotReady("bad-ready-expr", "InvalidCELExpression");
    expect(stalled.message).toBe(
      "Reconciliation failed terminally due to configuration error: spec.dependsOn[0].readyExpr: failed to check " +
        "the CEL expression 'self.metadata.generation == deps.metadata.generation': Unknown variable: deps",
    );
  });

  it("a field in no Flux CRD is pruned by the API server, at the top of spec and nested", async () => {
    await h.mgmt.client.create(`${KS}/v1/namespaces/${h.ns}/kustomizations`, {
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      kind: "Kustomization",
      metadata: { name: "nonsense", namespace: h.ns },
      spec: {
        interval: "10m",
        prune: true,
        path: "./plain",
        sourceRef: { kind: "GitRepository", name: "platform", nonsense: "x" },
        postBuild: { substitute: { kept: "yes" }, nonsense: true },
        nonsense: 1,
      },
    });
    const read = (await h.getKs("nonsense")) as unknown as { spec: Record<string, Record<string, unknown>> };
    expect(read.spec.nonsense).toBeUndefined();
    expect(read.spec.sourceRef).toEqual({ kind: "GitRepository", name: "platform" });
    expect(read.spec.postBuild).toEqual({ substitute: { kept: "yes" } });
    await h.waitReady("nonsense");
  });

  it("a v1beta1 manifest's patchesStrategicMerge survives conversion to the stored v1 and is applied", async () => {
    await h.mgmt.client.create(`${KS}/v1beta1/namespaces/${h.ns}/kustomizations`, {
      apiVersion: "kustomize.toolkit.fluxcd.io/v1beta1",
      kind: "Kustomization",
      metadata: { name: "old-docs", namespace: h.ns },
      spec: {
        interval: "10m",
        prune: true,
        path: "./old",
        sourceRef: { kind: "GitRepository", name: "platform" },
        validation: "client",
        patchesStrategicMerge: [
          {
            apiVersion: "v1",
            kind: "ConfigMap",
            metadata: { name: "old-app", namespace: h.ns },
            data: { a: "patched" },
          },
        ],
      },
    });
    const stored = await h.getKs("old-docs");
    expect(stored.spec.patchesStrategicMerge).toHaveLength(1);
    await h.waitReady("old-docs");
    const cm = (await configMapIn("old-app")) as unknown as { data: Record<string, string> };
    expect(cm.data.a).toBe("patched");
  });
});
