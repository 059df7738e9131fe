// Kustomizations end to end on the local fleet: a platform repository over real git smart-HTTP,
// source and Kustomization controllers in-process, the management plane and a tenant plane.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Kustomization, kustomizationCrd } from "../../src/api/kustomize/kustomization.js";
import { gitRepositoryCrd } from "../../src/api/source/git-repository.js";
import { GitRepositoryReconciler } from "../../src/controllers/gitrepository/reconciler.js";
import {
  KustomizationReconciler,
  SOURCE_INDEX,
  sourceIndex,
  sourceWatch,
} from "../../src/controllers/kustomization/reconciler.js";
import { NotFoundError } from "../../src/kube/errors.js";
import type { KubeObject } from "../../src/kube/object.js";
import { Controller, REQUESTED_AT_ANNOTATION } from "../../src/runtime/controller.js";
import { EventRecorder } from "../../src/runtime/events.js";
import { createLogger } from "../../src/runtime/logger.js";
import { startArtifactServer } from "../../src/sources/artifact/server.js";
import { Storage } from "../../src/sources/artifact/storage.js";
import { SourceFetcher } from "../../src/sources/consumer.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, type GitRepoHandle, startGitHttpServer } from "../support/git-http-server.js";

const mgmt = planeCluster("management");
const tenant1 = planeCluster("tenant1");
const log = createLogger({ level: "error", write: () => {} });
const G = { source: "source.toolkit.fluxcd.io", ks: "kustomize.toolkit.fluxcd.io" };
let git: GitHttpServer;
let repo: GitRepoHandle;
let ns: string; // the "flux-system" of this test
let apps: string; // the tenant namespace
let controllers: Controller[] = [];
let artifacts: Awaited<ReturnType<typeof startArtifactServer>>;

const ksPath = (namespace: string, name: string) => `/apis/${G.ks}/v1/namespaces/${namespace}/kustomizations/${name}`;
const getKs = (namespace: string, name: string) => mgmt.client.get<Kustomization>(ksPath(namespace, name));
const readyOf = (k: Kustomization) => k.status?.conditions?.find((c) => c.type === "Ready");
const cm = (name: string, namespace?: string, data: Record<string, string> = { a: "1" }) =>
  JSON.stringify({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, ...(namespace ? { namespace } : {}) },
    data,
  });

async function createKs(namespace: string, name: string, spec: Record<string, unknown>) {
  await mgmt.client.create(`/apis/${G.ks}/v1/namespaces/${namespace}/kustomizations`, {
    apiVersion: `${G.ks}/v1`,
    kind: "Kustomization",
    metadata: { name, namespace },
    spec: { interval: "10m", prune: true, sourceRef: { kind: "GitRepository", name: "platform" }, ...spec },
  });
}

async function waitReady(namespace: string, name: string, timeoutMs = 60_000) {
  return eventually(
    `Kustomization ${namespace}/${name} Ready`,
    async () => {
      const k = await getKs(namespace, name);
      return readyOf(k)?.status === "True" && k.status?.observedGeneration === k.metadata.generation ? k : undefined;
    },
    timeoutMs,
  );
}

/** Not Ready for the object's current generation (an earlier failure does not count). */
async function waitNotReady(namespace: string, name: string, reason?: string) {
  return eventually(`Kustomization ${namespace}/${name} not Ready`, async () => {
    const k = await getKs(namespace, name);
    const c = readyOf(k);
    return c?.status === "False" && c.observedGeneration === k.metadata.generation && (!reason || c.reason === reason)
      ? c
      : undefined;
  });
}

async function reconcileNow(namespace: string, name: string) {
  const at = new Date().toISOString();
  await mgmt.client.patch(ksPath(namespace, name), "merge", {
    metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } },
  });
  await eventually(
    "the requested reconcile",
    async () => (await getKs(namespace, name)).status?.lastHandledReconcileAt === at,
  );
}

async function syncSource() {
  const at = new Date().toISOString();
  await mgmt.client.patch(`/apis/${G.source}/v1/namespaces/${ns}/gitrepositories/platform`, "merge", {
    metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } },
  });
  const head = await repo.head();
  await eventually("the source at the new commit", async () => {
    const gr = await mgmt.client.get<{ status?: { artifact?: { revision: string } } }>(
      `/apis/${G.source}/v1/namespaces/${ns}/gitrepositories/platform`,
    );
    return gr.status?.artifact?.revision === `main@sha1:${head}`;
  });
}

beforeAll(async () => {
  for (const crd of [gitRepositoryCrd(), kustomizationCrd()])
    await mgmt.apply(crd as unknown as KubeObject, "flotilla-test", { force: true });
  await mgmt.discovery.waitForMapping({ group: G.ks, version: "v1", kind: "Kustomization" }, 10_000);
  await mgmt.discovery.waitForMapping({ group: G.source, version: "v1", kind: "GitRepository" }, 10_000);
  ns = await testNamespace(mgmt.client, "flux");
  apps = await testNamespace(mgmt.client, "apps");
  git = await startGitHttpServer();
  repo = await git.createRepo("platform");
  await repo.commit(
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
  const storage = new Storage(mkdtempSync(join(tmpdir(), "flotilla-storage-")), "http://127.0.0.1:0");
  artifacts = await startArtifactServer(storage, "127.0.0.1", 0);
  (storage as { baseUrl: string }).baseUrl = artifacts.url;
  const events = new EventRecorder(mgmt.client, "kustomize-controller", log);
  const fetcher = new SourceFetcher(mgmt.client, mkdtempSync(join(tmpdir(), "flotilla-sources-")));
  controllers = [
    new Controller({
      name: "gitrepository",
      kind: { group: G.source, version: "v1", kind: "GitRepository" },
      cluster: mgmt,
      log,
      reconciler: new GitRepositoryReconciler(mgmt, storage, events),
    }),
    new Controller({
      name: "kustomization",
      kind: { group: G.ks, version: "v1", kind: "Kustomization" },
      cluster: mgmt,
      log,
      concurrency: 4,
      reconciler: new KustomizationReconciler(mgmt, fetcher, events, { requeueDependencyMs: 1000 }),
      watches: [sourceWatch("GitRepository")],
    }),
  ];
  controllers[1]!.informer.addIndex(SOURCE_INDEX, sourceIndex);
  for (const c of controllers) await c.start();
  await mgmt.client.create(`/apis/${G.source}/v1/namespaces/${ns}/gitrepositories`, {
    apiVersion: `${G.source}/v1`,
    kind: "GitRepository",
    metadata: { name: "platform", namespace: ns },
    spec: { url: repo.url, interval: "10m", ref: { branch: "main" } },
  });
  await mgmt.client.create(`/apis/${G.source}/v1/namespaces/${apps}/gitrepositories`, {
    apiVersion: `${G.source}/v1`,
    kind: "GitRepository",
    metadata: { name: "platform", namespace: apps },
    spec: { url: repo.url, interval: "10m", ref: { branch: "main" } },
  });
});

afterAll(async () => {
  for (const c of controllers) await c.stop();
  await Promise.all([git?.close(), artifacts?.close()]);
});

describe("Kustomization", () => {
  it("applies infrastructure before tenants via dependsOn, and the tenant, impersonating dev-team, applies into its namespace", async () => {
    await createKs(ns, "tenants", { path: "./apps", dependsOn: [{ name: "infra" }], targetNamespace: apps });
    const pending = await waitNotReady(ns, "tenants");
    expect(pending.reason).toBe("DependencyNotReady");
    expect(pending.message).toBe(`dependency '${ns}/infra' is not ready`);

    await createKs(ns, "infra", { path: "./infrastructure" });
    const infra = await waitReady(ns, "infra");
    expect(readyOf(infra)!.message).toBe(`Applied revision: main@sha1:${await repo.head()}`);
    expect(infra.status!.inventory!.entries).toEqual([
      { id: `${apps}_dev-team__ServiceAccount`, v: "v1" },
      { id: `${apps}_dev-team-reconciler_rbac.authorization.k8s.io_RoleBinding`, v: "v1" },
    ]);
    await waitReady(ns, "tenants");

    await createKs(apps, "dev-team", { path: "./apps", serviceAccountName: "dev-team", targetNamespace: apps });
    const tenant = await waitReady(apps, "dev-team");
    expect(tenant.status!.inventory!.entries).toEqual([{ id: `${apps}_app-config__ConfigMap`, v: "v1" }]);
    const applied = await mgmt.get({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "app-config", namespace: apps },
    });
    expect(applied?.metadata.labels).toMatchObject({ [`${G.ks}/name`]: "dev-team", [`${G.ks}/namespace`]: apps });
  });

  it("refuses a tenant manifest for another namespace with the API's Forbidden message, applying nothing; targetNamespace fixes it", async () => {
    await createKs(apps, "bad", { path: "./apps-bad", serviceAccountName: "dev-team" });
    const refused = await waitNotReady(apps, "bad");
    expect(refused.reason).toBe("ReconciliationFailed");
    expect(refused.message).toContain(
      `ConfigMap/${ns}/sneaky dry-run failed (Forbidden): configmaps "sneaky" is forbidden: User "system:serviceaccount:${apps}:dev-team" cannot patch resource "configmaps" in API group "" in the namespace "${ns}"`,
    );
    expect(
      await mgmt.get({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "sneaky", namespace: ns } }),
    ).toBeUndefined();

    await mgmt.client.patch(ksPath(apps, "bad"), "merge", { spec: { targetNamespace: apps } });
    await waitReady(apps, "bad");
    expect(
      await mgmt.get({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "sneaky", namespace: apps } }),
    ).toBeDefined();
  });

  it("applies into a tenant plane through its admin kubeconfig Secret, restores drift, and prunes what Git removed", async () => {
    const secret = await mgmt.client.get<{ data: Record<string, string> }>(
      "/api/v1/namespaces/tenants/secrets/tenant1-admin-kubeconfig",
    );
    await mgmt.client.create(`/api/v1/namespaces/${ns}/secrets`, {
      metadata: { name: "tenant1-admin-kubeconfig" },
      data: { "admin.conf": secret.data["admin.conf"]! },
    });
    await createKs(ns, "tenant1-apps", {
      path: "./remote",
      kubeConfig: { secretRef: { name: "tenant1-admin-kubeconfig", key: "admin.conf" } },
    });
    await waitReady(ns, "tenant1-apps");
    const remote = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "remote-config", namespace: "default" } };
    expect((await tenant1.get(remote))?.data).toEqual({ a: "1" });
    expect(await mgmt.get(remote)).toBeUndefined();

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
    await reconcileNow(ns, "tenant1-apps");
    expect((await tenant1.get(remote))?.data).toEqual({ a: "1" });
    expect(
      await tenant1.get({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "remote-extra", namespace: "default" },
      }),
    ).toBeDefined();

    await repo.commit({ "remote/extra.yaml": null }, "drop extra");
    await syncSource();
    await reconcileNow(ns, "tenant1-apps");
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
    await createKs(ns, "fragile", { path: "./fragile" });
    await repo.commit({ "fragile/a.yaml": cm("fragile-a", ns) }, "fragile");
    await syncSource();
    await reconcileNow(ns, "fragile");
    await waitReady(ns, "fragile");

    await repo.commit({ "fragile/a.yaml": null, "fragile/README.md": "nothing here\n" }, "empty the path");
    await syncSource();
    await reconcileNow(ns, "fragile");
    const refused = await waitNotReady(ns, "fragile");
    expect(refused.message).toContain("refusing to prune all 1 objects: the new set is empty");
    expect(
      await mgmt.get({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "fragile-a", namespace: ns } }),
    ).toBeDefined();

    await mgmt.client.patch(ksPath(ns, "fragile"), "merge", {
      spec: { sourceRef: { kind: "GitRepository", name: "missing-source" } },
    });
    const failed = await waitNotReady(ns, "fragile", "ArtifactFailed");
    expect(failed.message).toBe(`Source 'GitRepository/${ns}/missing-source' not found`);
    expect(
      await mgmt.get({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "fragile-a", namespace: ns } }),
    ).toBeDefined();
  });
});
