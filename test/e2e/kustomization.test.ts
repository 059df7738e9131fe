// Kustomizations end to end on the local fleet: a platform repository over real git smart-HTTP,
// source and Kustomization controllers in-process (test/support/kustomize-harness.ts), the
// management plane and a tenant plane.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/kube/errors.js";
import type { Kustomization } from "../../src/api/kustomize/kustomization.js";
import { eventually, planeCluster } from "../support/fleet-context.js";
import {
  configMap as cm,
  type KustomizationsIn,
  type KustomizeHarness,
  startKustomizeHarness,
} from "../support/kustomize-harness.js";

const tenant1 = planeCluster("tenant1");
const KS = "kustomize.toolkit.fluxcd.io";
let h: KustomizeHarness; // the test's "flux-system"
let t: KustomizationsIn; // the tenant namespace
let ns: string;
let apps: string;
const readyOf = (k: Kustomization) => k.status?.conditions?.find((c) => c.type === "Ready");

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "flux" });
  t = await h.addNamespace("apps");
  ns = h.ns;
  apps = t.ns;
  await h.commit(
    {
      "infrastructure/rbac.yaml": [
        JSON.stringify({ apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "dev-team", namespace: apps } }),
        JSON.stringify({
          apiVersion: "rbac.authorization.k8s.io/v1",
          kind: "RoleBinding",
          metadata: { name: "dev-team-reconciler", namespace: apps },
          roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "admin" },
          subjects: [{ kind: "ServiceAccount", name: "dev-team", namespace: apps }],
        }),
      ].join("\n---\n"),
      "apps/app.yaml": cm("app-config"),
      "apps-bad/other.yaml": cm("sneaky", ns),
      "remote/app.yaml": cm("remote-config", "default"),
      "remote/extra.yaml": cm("remote-extra", "default"),
    },
    "platform",
  );
  // The tenant namespace's own GitRepository follows the same repository.
  await eventually("the tenant's source at the platform commit", async () => {
    const gr = await h.mgmt.client.get<{ status?: { artifact?: { revision: string } } }>(
      `/apis/source.toolkit.fluxcd.io/v1/namespaces/${apps}/gitrepositories/platform`,
    );
    return gr.status?.artifact?.revision === `main@sha1:${await h.repo.head()}`;
  });
});

afterAll(async () => {
  await h?.stop();
});

describe("Kustomization", () => {
  it("applies infrastructure before tenants via dependsOn, and the tenant, impersonating dev-team, applies into its namespace", async () => {
    await h.createKs("tenants", { path: "./apps", dependsOn: [{ name: "infra" }], targetNamespace: apps });
    const pending = await h.waitNotReady("tenants");
    expect(pending.reason).toBe("DependencyNotReady");
    expect(pending.message).toBe(`dependency '${ns}/infra' is not ready`);

    await h.createKs("infra", { path: "./infrastructure" });
    const infra = await h.waitReady("infra");
    expect(readyOf(infra)!.message).toBe(`Applied revision: main@sha1:${await h.repo.head()}`);
    expect(infra.status!.inventory!.entries).toEqual([
      { id: `${apps}_dev-team__ServiceAccount`, v: "v1" },
      { id: `${apps}_dev-team-reconciler_rbac.authorization.k8s.io_RoleBinding`, v: "v1" },
    ]);
    await h.waitReady("tenants");

    await t.createKs("dev-team", { path: "./apps", serviceAccountName: "dev-team", targetNamespace: apps });
    const tenant = await t.waitReady("dev-team");
    expect(tenant.status!.inventory!.entries).toEqual([{ id: `${apps}_app-config__ConfigMap`, v: "v1" }]);
    const applied = await h.mgmt.get({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "app-config", namespace: apps },
    });
    expect(applied?.metadata.labels).toMatchObject({ [`${KS}/name`]: "dev-team", [`${KS}/namespace`]: apps });
  });

  it("refuses a tenant manifest for another namespace with the API's Forbidden message, applying nothing; targetNamespace fixes it", async () => {
    await t.createKs("bad", { path: "./apps-bad", serviceAccountName: "dev-team" });
    const refused = await t.waitNotReady("bad");
    expect(refused.reason).toBe("ReconciliationFailed");
    expect(refused.message).toContain(
      `ConfigMap/${ns}/sneaky dry-run failed (Forbidden): configmaps "sneaky" is forbidden: User "system:serviceaccount:${apps}:dev-team" cannot patch resource "configmaps" in API group "" in the namespace "${ns}"`,
    );
    expect(
      await h.mgmt.get({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "sneaky", namespace: ns } }),
    ).toBeUndefined();

    await h.mgmt.client.patch(t.ksPath("bad"), "merge", { spec: { targetNamespace: apps } });
    await t.waitReady("bad");
    expect(
      await h.mgmt.get({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "sneaky", namespace: apps } }),
    ).toBeDefined();
  });

  it("applies into a tenant plane through its admin kubeconfig Secret, restores drift, and prunes what Git removed", async () => {
    await h.copyAdminKubeconfig("tenant1");
    await h.createKs("tenant1-apps", {
      path: "./remote",
      kubeConfig: { secretRef: { name: "tenant1-admin-kubeconfig", key: "admin.conf" } },
    });
    await h.waitReady("tenant1-apps");
    const remote = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "remote-config", namespace: "default" } };
    expect((await tenant1.get(remote))?.data).toEqual({ a: "1" });
    expect(await h.mgmt.get(remote)).toBeUndefined();

    await tenant1.client.patch(
      "/api/v1/namespaces/default/configmaps/remote-config",
      "merge",
      { data: { a: "tampered" } },
      { fieldManager: "kubectl-edit" },
    );
    await tenant1.delete({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "remote-extra", namespace: "default" },
    });
    await h.reconcileNow("tenant1-apps");
    expect((await tenant1.get(remote))?.data).toEqual({ a: "1" });
    expect(
      await tenant1.get({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "remote-extra", namespace: "default" },
      }),
    ).toBeDefined();

    await h.commit({ "remote/extra.yaml": null }, "drop extra");
    await h.reconcileNow("tenant1-apps");
    await eventually("remote-extra pruned in tenant1", async () => {
      try {
        await tenant1.client.get("/api/v1/namespaces/default/configmaps/remote-extra");
        return false;
      } catch (err) {
        return err instanceof NotFoundError;
      }
    });
  });

  it("never prunes because a path came out empty or the source failed", async () => {
    await h.createKs("fragile", { path: "./fragile" });
    await h.commit({ "fragile/a.yaml": cm("fragile-a", ns) }, "fragile");
    await h.reconcileNow("fragile");
    await h.waitReady("fragile");

    await h.commit({ "fragile/a.yaml": null, "fragile/README.md": "nothing here\n" }, "empty the path");
    await h.reconcileNow("fragile");
    const refused = await h.waitNotReady("fragile");
    expect(refused.message).toContain("refusing to prune all 1 objects: the new set is empty");
    expect(
      await h.mgmt.get({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "fragile-a", namespace: ns } }),
    ).toBeDefined();

    await h.mgmt.client.patch(h.ksPath("fragile"), "merge", {
      spec: { sourceRef: { kind: "GitRepository", name: "missing-source" } },
    });
    const failed = await h.waitNotReady("fragile", "ArtifactFailed");
    expect(failed.message).toBe(`Source 'GitRepository/${ns}/missing-source' not found`);
    expect(
      await h.mgmt.get({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "fragile-a", namespace: ns } }),
    ).toBeDefined();
  });
});
