// The Flux Operator's FluxInstance and FluxReport against the real `flotilla controller` process on the
// shared fleet, with a d2-fleet–shaped repository served by the test git server: the FluxInstance's
// spec.sync creates the root GitRepository and Kustomization (named after the namespace, as the
// operator names them), the root path holds a ResourceSet that generates a tenant namespace and, per
// tenant plane, an app Kustomization applied to that plane; the FluxReport shows the distribution, the
// components, the reconcilers' statistics and the sync. Then what is refused (a second instance, a
// lockdown the process does not run with, Bucket) and the sync's removal pruning the root objects.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Condition } from "../../src/api/meta/conditions.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { operatorCrds } from "../../src/api/flux-crds.js";
import { kustomizationCrd } from "../../src/api/kustomize/kustomization.js";
import type { FluxInstance } from "../../src/api/operator/fluxinstance.js";
import type { FluxReport } from "../../src/api/operator/fluxreport.js";
import { NotFoundError } from "../../src/kube/errors.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { startGitHttpServer } from "../support/git-http-server.js";
import { type Harness, startHarness } from "../support/harness.js";

const git = await startGitHttpServer();
afterAll(() => git.close());
const planes = ["tenant1", "tenant2"] as const;
const tenants = { tenant1: "team-a", tenant2: "team-b" } as const;
const API = "/apis/fluxcd.controlplane.io/v1/namespaces";

let h: Harness<"fi">;
let ns: string;
let repoUrl: string;
const shard = () => ({ "flotilla.dev/shard": ns });
const instancePath = () => `${API}/${ns}/fluxinstances/flux`;
const cond = (o: { status?: { conditions?: Condition[] } } | undefined, type: string) =>
  o?.status?.conditions?.find((c) => c.type === type);

/** The d2-fleet layout: clusters/<env> (the root sync's path) holds the tenants' ResourceSet; apps/ the app. */
function fleetRepo(): Record<string, string> {
  const inputs = planes.map((p) => `    - tenant: ${tenants[p]}\n      plane: ${p}`).join("\n");
  return {
    "clusters/test/tenants.yaml": `apiVersion: fluxcd.controlplane.io/v1
kind: ResourceSet
metadata:
  name: tenants
  namespace: ${ns}
  labels:
    flotilla.dev/shard: ${ns}
spec:
  commonMetadata:
    labels:
      flotilla.dev/shard: ${ns}
  inputs:
${inputs}
  resourcesTemplate: |
    ---
    apiVersion: v1
    kind: Namespace
    metadata:
      name: ${ns}-<< inputs.tenant >>
      labels:
        toolkit.fluxcd.io/tenant: << inputs.tenant >>
    ---
    apiVersion: v1
    kind: ServiceAccount
    metadata:
      name: flux
      namespace: ${ns}-<< inputs.tenant >>
    ---
    apiVersion: kustomize.toolkit.fluxcd.io/v1
    kind: Kustomization
    metadata:
      name: << inputs.tenant >>-apps
      namespace: ${ns}
    spec:
      interval: 10m
      path: ./apps
      prune: true
      targetNamespace: ${ns}-<< inputs.tenant >>
      kubeConfig:
        secretRef:
          name: << inputs.plane >>-admin-kubeconfig
          key: admin.conf
      postBuild:
        substitute:
          tenant: << inputs.tenant | quote >>
          tenant_ns: ${ns}-<< inputs.tenant >>
      sourceRef:
        kind: GitRepository
        name: ${ns}
`,
    "apps/kustomization.yaml":
      "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - namespace.yaml\n  - podinfo.yaml\n",
    "apps/namespace.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${tenant_ns}\n",
    "apps/podinfo.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: podinfo\ndata:\n  tenant: ${tenant}\n",
  };
}

const instance = (spec: Record<string, unknown>): FluxInstance => ({
  apiVersion: "fluxcd.controlplane.io/v1",
  kind: "FluxInstance",
  metadata: { name: "flux", namespace: ns, labels: shard() },
  spec: spec as never,
});

beforeAll(async () => {
  h = await startHarness({
    namespaces: { fi: "fi" },
    crds: [...operatorCrds(), kustomizationCrd() as unknown as KubeObject],
    controller: { storagePrefix: "fi" },
  });
  ns = h.ns.fi;
  for (const p of planes) await h.copyKubeconfig(p, ns);
  h.onCleanup(async () => {
    for (const p of planes)
      await planeCluster(p)
        .client.delete(`/api/v1/namespaces/${ns}-${tenants[p]}`)
        .catch(() => undefined);
    await h.mgmt.client.delete(`/api/v1/namespaces/${ns}-team-a`).catch(() => undefined);
    await h.mgmt.client.delete(`/api/v1/namespaces/${ns}-team-b`).catch(() => undefined);
  });
  const repo = await git.createRepo(`d2-fleet-${ns}`);
  await repo.commit(fleetRepo(), "d2-fleet layout");
  repoUrl = repo.url;
}, 180_000);
afterAll(async () => h?.cleanup());

describe("FluxInstance and FluxReport (fluxcd.controlplane.io/v1) with flotilla as the distribution", () => {
  it("syncs a d2-fleet–shaped repository: FluxInstance → root GitRepository + Kustomization → ResourceSet → a tenant namespace and an app on each tenant plane", async () => {
    // The report as the operator's initReport makes it, labelled into this test's shard and refreshed every 2s.
    await h.mgmt.apply(
      {
        apiVersion: "fluxcd.controlplane.io/v1",
        kind: "FluxReport",
        metadata: {
          name: "flux",
          namespace: ns,
          labels: shard(),
          annotations: { "fluxcd.controlplane.io/reconcileEvery": "2s" },
        },
        spec: { distribution: { status: "Unknown", entitlement: "Unknown" } },
      } as KubeObject,
      "flotilla-test",
      { force: true },
    );
    await h.mgmt.client.create(
      `${API}/${ns}/fluxinstances`,
      instance({
        distribution: {
          version: "2.x",
          registry: "ghcr.io/fluxcd",
          artifact: "oci://ghcr.io/controlplaneio-fluxcd/flux-operator-manifests",
        },
        cluster: { type: "kubernetes", networkPolicy: true, domain: "cluster.local" },
        kustomize: { patches: [{ target: { kind: "Deployment" }, patch: "- op: add\n  path: /x\n  value: y" }] },
        commonMetadata: { labels: shard() },
        sync: { kind: "GitRepository", url: repoUrl, ref: "refs/heads/main", path: "clusters/test", interval: "1m" },
      }),
    );
    const fi = await eventually(
      "FluxInstance flux Ready=True",
      async () => {
        const o = await h.mgmt.client.get<FluxInstance>(instancePath());
        return cond(o, "Ready")?.status === "True" && o.status?.observedGeneration === o.metadata.generation
          ? o
          : undefined;
      },
      90_000,
    );
    expect(cond(fi, "Ready")).toMatchObject({
      reason: "ReconciliationSucceeded",
      message: expect.stringMatching(/^Reconciliation finished in /),
    });
    expect(fi.status?.lastAppliedRevision).toMatch(/^v2\.9\.5@sha256:[0-9a-f]{64}$/);
    expect(fi.status?.lastAttemptedRevision).toBe(fi.status?.lastAppliedRevision);
    expect(fi.status?.inventory?.entries.map((e) => e.id).sort()).toEqual([
      `${ns}_${ns}_kustomize.toolkit.fluxcd.io_Kustomization`,
      `${ns}_${ns}_source.toolkit.fluxcd.io_GitRepository`,
    ]);
    expect(fi.status?.components?.map((c) => c.name)).toEqual([
      "source-controller",
      "kustomize-controller",
      "helm-controller",
      "notification-controller",
    ]);
    expect(cond(fi, "DistributionMapped")?.message).toContain("kustomize.patches (1): not applied");
    expect(fi.metadata.finalizers).toContain("fluxcd.controlplane.io/finalizer");
    // status.history as the operator records it: the revision's digest, the outcome, the Flux version.
    expect(fi.status?.history).toEqual([
      {
        digest: fi.status!.lastAppliedRevision!.split("@")[1],
        firstReconciled: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        lastReconciled: expect.any(String),
        lastReconciledDuration: expect.stringMatching(/^[\d.]+(ms|s)$|m/),
        lastReconciledStatus: "ReconciliationSucceeded",
        totalReconciliations: expect.any(Number),
        metadata: { flux: "v2.9.5" },
      },
    ]);
    // One reconcile per reason to reconcile: the creation, then a requested one — counted 2, no more
    // (a second reconcile of the same generation at start would count 3).
    const requestedAt = `count-${Date.now()}`;
    await h.mgmt.client.patch(instancePath(), "merge", {
      metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": requestedAt } },
    });
    const requested = await eventually(
      "FluxInstance flux handled the reconcile request",
      async () => {
        const o = await h.mgmt.client.get<FluxInstance>(instancePath());
        return o.status?.lastHandledReconcileAt === requestedAt ? o : undefined;
      },
      90_000,
    );
    expect(requested.status?.history?.map((s) => s.totalReconciliations)).toEqual([2]);

    // The root objects, named after the namespace and owned as the operator owns them.
    const gitRepo = await h.mgmt.client.get<KubeObject>(
      `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories/${ns}`,
    );
    expect(gitRepo.metadata.labels).toMatchObject({
      "fluxcd.controlplane.io/name": "flux",
      "fluxcd.controlplane.io/namespace": ns,
      "app.kubernetes.io/managed-by": "flux-operator",
      "app.kubernetes.io/part-of": "flux",
    });
    expect(gitRepo.spec).toMatchObject({ interval: "1m0s", ref: { name: "refs/heads/main" }, url: repoUrl });
    const root = await h.mgmt.client.get<KubeObject>(
      `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations/${ns}`,
    );
    expect(root.spec).toMatchObject({
      interval: "10m0s",
      path: "clusters/test",
      prune: true,
      sourceRef: { kind: "GitRepository", name: ns },
    });

    // The ResourceSet from the repository generated, per tenant, a namespace and an app on its plane.
    for (const p of planes) {
      const t = tenants[p];
      const cm = await eventually(
        `ConfigMap podinfo in ${ns}-${t} on ${p}`,
        () =>
          planeCluster(p).client.get<{ data: Record<string, string> }>(
            `/api/v1/namespaces/${ns}-${t}/configmaps/podinfo`,
          ),
        90_000,
        500,
      );
      expect(cm.data).toEqual({ tenant: t });
      const tenantNs = await h.mgmt.client.get<KubeObject>(`/api/v1/namespaces/${ns}-${t}`);
      expect(tenantNs.metadata.labels).toMatchObject({
        "toolkit.fluxcd.io/tenant": t,
        "resourceset.fluxcd.controlplane.io/name": "tenants",
      });
    }

    // The FluxReport shows it: distribution, flotilla's components, statistics per kind, the sync.
    const report = await eventually(
      "FluxReport with the sync Ready and the ResourceSet counted",
      async () => {
        const r = await h.mgmt.client.get<FluxReport>(`${API}/${ns}/fluxreports/flux`);
        const rsets = r.spec.reconcilers?.find((x) => x.kind === "ResourceSet");
        const ks = r.spec.reconcilers?.find((x) => x.kind === "Kustomization");
        // A report computed before the ResourceSet made the apps may still be the latest: wait for one after.
        return r.spec.sync?.ready && rsets && rsets.stats.running >= 1 && ks && ks.stats.running >= 3 ? r : undefined;
      },
      60_000,
      500,
    );
    expect(report.spec.distribution).toMatchObject({ status: "Installed", entitlement: "Unknown" });
    expect(report.spec.components?.map((c) => c.name)).toEqual([
      "helm-controller",
      "kustomize-controller",
      "notification-controller",
      "source-controller",
    ]);
    expect(report.spec.sync).toMatchObject({
      id: `kustomization/${ns}`,
      path: "clusters/test",
      ready: true,
      source: repoUrl,
    });
    expect(report.spec.sync?.status).toMatch(/^Applied revision: refs\/heads\/main@sha1:/);
    const stats = Object.fromEntries(report.spec.reconcilers!.map((r) => [`${r.apiVersion}/${r.kind}`, r.stats]));
    expect(stats["fluxcd.controlplane.io/v1/FluxInstance"]!.running).toBeGreaterThanOrEqual(1);
    expect(stats["kustomize.toolkit.fluxcd.io/v1/Kustomization"]!.running).toBeGreaterThanOrEqual(3);
    expect(stats["source.toolkit.fluxcd.io/v1/GitRepository"]!.totalSize).toMatch(/ (B|KiB|MiB)$/);
    expect(report.spec.operator).toMatchObject({ apiVersion: "fluxcd.controlplane.io/v1" });
    expect(cond(report, "Ready")?.message).toMatch(/^Reporting finished in /);
  });

  it("refuses what it cannot do by name: a FluxInstance not named flux, one outside the controller's namespace, a lockdown the process lacks, a Bucket sync", async () => {
    const other = {
      ...instance({ distribution: { version: "2.x", registry: "r" } }),
      metadata: { name: "other", namespace: ns, labels: shard() },
    };
    await expect(h.mgmt.client.create(`${API}/${ns}/fluxinstances`, other)).rejects.toThrow(
      /the only accepted name for a FluxInstance is 'flux'/,
    );

    const elsewhere = await testNamespace(h.mgmt.client, "fi-other");
    await h.mgmt.client.create(`${API}/${elsewhere}/fluxinstances`, {
      ...instance({ distribution: { version: "2.x", registry: "r" } }),
      metadata: { name: "flux", namespace: elsewhere, labels: shard() },
    });
    const refused = await eventually("a second FluxInstance Stalled", async () => {
      const o = await h.mgmt.client.get<FluxInstance>(`${API}/${elsewhere}/fluxinstances/flux`);
      return cond(o, "Stalled")?.status === "True" ? o : undefined;
    });
    expect(cond(refused, "Ready")).toMatchObject({ status: "False", reason: "InvalidNamespace" });
    expect(cond(refused, "Ready")?.message).toContain(
      `one FluxInstance per cluster, in the namespace the distribution runs in (flotilla's --runtime-namespace, ${ns})`,
    );

    const settledWith = (reason: string) =>
      eventually(`FluxInstance flux Ready=False ${reason}`, async () => {
        const o = await h.mgmt.client.get<FluxInstance>(instancePath());
        return o.status?.observedGeneration === o.metadata.generation && cond(o, "Ready")?.reason === reason
          ? o
          : undefined;
      });
    await h.mgmt.client.patch(instancePath(), "merge", {
      spec: { cluster: { multitenant: true, tenantDefaultServiceAccount: "flux" } },
    });
    const locked = await settledWith("MultitenancyNotEnforced");
    expect(cond(locked, "Ready")?.message).toContain(
      "restart it with --no-cross-namespace-refs=true --no-remote-bases=true --default-service-account=flux",
    );
    expect(cond(locked, "DistributionMapped")).toMatchObject({ status: "False", reason: "RestartRequired" });

    await h.mgmt.client.patch(instancePath(), "merge", {
      spec: { cluster: { multitenant: false }, sync: { kind: "Bucket" } },
    });
    const bucket = await settledWith("UnsupportedField");
    expect(cond(bucket, "Ready")?.message).toMatch(/^spec\.sync\.kind Bucket is not supported by flotilla/);
  });

  it("prunes the root GitRepository and Kustomization when spec.sync is removed, and leaves an empty inventory", async () => {
    await h.mgmt.client.patch(instancePath(), "merge", { spec: { sync: null } });
    const fi = await eventually("FluxInstance flux Ready=True without sync", async () => {
      const o = await h.mgmt.client.get<FluxInstance>(instancePath());
      return o.status?.observedGeneration === o.metadata.generation && cond(o, "Ready")?.status === "True"
        ? o
        : undefined;
    });
    expect(fi.status?.inventory?.entries).toEqual([]);
    for (const p of [
      `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories/${ns}`,
      `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations/${ns}`,
    ])
      await eventually(
        `${p} gone`,
        () =>
          h.mgmt.client.get(p).then(
            () => false,
            (err: unknown) => err instanceof NotFoundError,
          ),
        60_000,
        500,
      );
  });
});
