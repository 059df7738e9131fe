// The multi-tenancy lockdown (flux2-multi-tenancy): with --default-service-account=default a
// Kustomization that names no service account runs as the namespace's `default` account, which can
// do nothing — so a tenant cannot escape by leaving the field out — while platform Kustomizations
// that name the privileged kustomize-controller account keep working.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

let h: KustomizeHarness;

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "defsa", defaultServiceAccount: "default" });
  const ns = h.ns;
  await h.mgmt.client.create(`/api/v1/namespaces/${ns}/serviceaccounts`, {
    metadata: { name: "kustomize-controller" },
  });
  await h.mgmt.client.create("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", {
    metadata: { name: `${ns}-kustomize-controller` },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" },
    subjects: [{ kind: "ServiceAccount", name: "kustomize-controller", namespace: ns }],
  });
  await h.commit(
    { "tenant/cm.yaml": configMap("tenant-config", ns), "platform/cm.yaml": configMap("platform-config", ns) },
    "tenant and platform",
  );
});

afterAll(async () => {
  await h?.mgmt.client
    .delete(`/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${h.ns}-kustomize-controller`)
    .catch(() => undefined);
  await h?.stop();
});

describe("--default-service-account=default", () => {
  it("a Kustomization without serviceAccountName fails with the API's Forbidden naming the default account, and applies nothing", async () => {
    await h.createKs("tenant", { path: "./tenant" });
    const failed = await h.waitNotReady("tenant", "ReconciliationFailed");
    expect(failed.message).toContain(`User "system:serviceaccount:${h.ns}:default" cannot`);
    expect(failed.message).toContain("set by --default-service-account");
    expect(
      await h.mgmt.get({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "tenant-config", namespace: h.ns } }),
    ).toBeUndefined();
  });

  it("a platform Kustomization with serviceAccountName: kustomize-controller succeeds", async () => {
    await h.createKs("platform", { path: "./platform", serviceAccountName: "kustomize-controller" });
    const ready = await h.waitReady("platform");
    expect(ready.status!.inventory!.entries).toEqual([{ id: `${h.ns}_platform-config__ConfigMap`, v: "v1" }]);
  });
});
