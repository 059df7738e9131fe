// dependsOn across kinds for the fleet kinds, and cycles across kinds named, through the real controller
// (sharded to this file's namespace, --no-cross-namespace-refs on) on the shared fleet's tenant planes:
// a FleetKustomization depending on a FleetHelmRelease waits on each cluster for that cluster's own
// HelmRelease child — which installs the namespace the Kustomization applies into —, saying which one of
// which kind is not ready; a cycle Kustomization → HelmRelease → Kustomization (plain objects, and fleet
// objects through their children) is named in full; a dependsOn entry into another namespace stalls the parent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fleetHelmReleaseCrd } from "../../src/api/fleet/fleet-helmrelease.js";
import { type FleetKustomization, fleetKustomizationCrd } from "../../src/api/fleet/fleet-kustomization.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import type { Kustomization } from "../../src/api/kustomize/kustomization.js";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { NotFoundError } from "../../src/kube/errors.js";
import { benchChart } from "../support/charts.js";
import { eventually, planeCluster } from "../support/fleet-context.js";
import { startGitHttpServer, type GitHttpServer } from "../support/git-http-server.js";
import { copyKubeconfig, serveCrds } from "../support/harness.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";

const SHARD = "flotilla.dev/shard";
const FLEET = "fleet.flotilla.dev/v1alpha1";
const mgmt = planeCluster("management");
const tenants = ["tenant1", "tenant2"] as const;
// Created only by the FleetHelmRelease's release: the Kustomization cannot apply before it.
const TARGET = `fleet-dep-kinds-${process.pid}`;
let env: HelmReleaseEnv;
let git: GitHttpServer;
const shard = () => ({ [SHARD]: env.ns });

type Ready = { reason: string; message: string; status: string };
const readyOf = (o: { status?: { conditions?: Ready[] } }) =>
  o.status?.conditions?.find((c) => (c as { type?: string }).type === "Ready");

async function waitReady(kind: keyof typeof SERVED_KINDS, name: string, want: (c: Ready) => boolean): Promise<Ready> {
  return eventually(
    `${kind} ${name} Ready as expected`,
    async () => {
      const c = readyOf(await mgmt.client.get(pathOf(SERVED_KINDS[kind], env.ns, name)));
      if (c && want(c)) return c;
      throw new Error(`${kind} ${name}: ${JSON.stringify(c)}`);
    },
    240_000,
    1000,
  );
}

/**
 * A fleet object applied with its dependsOn entries as written. On the shared fleet a controller of an older
 * version may have installed its own fleet CRDs (dependsOn: name only) since ours started, and the API server
 * would prune apiVersion and kind: this code's CRDs are applied again until the object reads back whole.
 */
async function applyFleet(
  kind: "FleetKustomization" | "FleetHelmRelease",
  name: string,
  spec: { dependsOn: object[] },
) {
  const path = pathOf(SERVED_KINDS[kind], env.ns, name);
  const obj = { apiVersion: FLEET, kind, metadata: { name, namespace: env.ns, labels: shard() }, spec };
  const whole = (o: { spec: { dependsOn?: object[] } }) =>
    JSON.stringify(o.spec.dependsOn ?? []) === JSON.stringify(spec.dependsOn);
  await eventually(
    `${kind} ${name} stored with its dependsOn`,
    async () => {
      await serveCrds(mgmt, [fleetKustomizationCrd(), fleetHelmReleaseCrd()] as unknown as KubeObject[]);
      return whole(
        await mgmt.client.apply<{ spec: { dependsOn?: object[] } }>(path, obj, "flotilla-test", { force: true }),
      );
    },
    60_000,
    200,
  );
}

const crsSpec = (dependsOn: object[], names = [...tenants]) => ({
  clusterSelector: { names },
  dependsOn,
  template: {
    metadata: { labels: shard() },
    spec: {
      interval: "10m",
      path: "./crs",
      prune: true,
      targetNamespace: TARGET,
      sourceRef: { kind: "GitRepository", name: "apps" },
    },
  },
});

const releaseSpec = (names: string[], dependsOn: object[] = []) => ({
  clusterSelector: { names },
  dependsOn,
  template: {
    metadata: { labels: shard() },
    spec: {
      interval: "10m",
      timeout: "60s",
      targetNamespace: TARGET,
      releaseName: "crds",
      install: { createNamespace: true },
      chart: {
        metadata: { labels: shard() },
        spec: { chart: "bench", version: "1.0.0", sourceRef: { kind: "HelmRepository", name: "charts" } },
      },
    },
  },
});

beforeAll(async () => {
  env = await startHelmReleaseEnv("fleet-dep-kinds", {
    extraArgs: ["--requeue-dependency=2s", "--no-cross-namespace-refs"],
  });
  await benchChart(env.charts);
  git = await startGitHttpServer();
  const repo = await git.createRepo("apps");
  await repo.commit({ "crs/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: after-crds\n" }, "crs");
  await mgmt.client.create(pathOf(SERVED_KINDS.GitRepository, env.ns), {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name: "apps", namespace: env.ns, labels: shard() },
    spec: { interval: "10m", url: repo.url, ref: { branch: "main" } },
  });
  for (const kind of [SERVED_KINDS.Cluster, SERVED_KINDS.FleetKustomization, SERVED_KINDS.FleetHelmRelease])
    await eventually(`${kind.kind} served`, () => mgmt.client.get(pathOf(kind, env.ns)).then(() => true), 60_000, 500);
  for (const t of tenants) {
    await copyKubeconfig(mgmt, t, env.ns);
    await mgmt.client.create(pathOf(SERVED_KINDS.Cluster, env.ns), {
      apiVersion: FLEET,
      kind: "Cluster",
      metadata: { name: t, namespace: env.ns, labels: shard() },
      spec: { kubeConfig: { secretRef: { name: `${t}-admin-kubeconfig`, key: "admin.conf" } }, interval: "10s" },
    });
  }
}, 180_000);

afterAll(async () => {
  const all = [
    SERVED_KINDS.FleetKustomization,
    SERVED_KINDS.FleetHelmRelease,
    SERVED_KINDS.Kustomization,
    SERVED_KINDS.HelmRelease,
  ];
  for (const kind of all) await mgmt.client.delete(pathOf(kind, env.ns)).catch(() => {});
  await eventually(
    "the releases uninstalled",
    async () =>
      (await mgmt.client.get<{ items: unknown[] }>(pathOf(SERVED_KINDS.HelmRelease, env.ns))).items.length === 0,
    120_000,
  ).catch(() => {});
  for (const t of tenants)
    await planeCluster(t)
      .client.delete(`/api/v1/namespaces/${TARGET}`)
      .catch(() => {});
  await env?.stop();
  await git?.close();
}, 180_000);

describe("fleet dependsOn across kinds", () => {
  it("a FleetKustomization waits on each cluster for that cluster's child of a FleetHelmRelease", async () => {
    const fhr = { apiVersion: FLEET, kind: "FleetHelmRelease", name: "crds" };
    await applyFleet("FleetKustomization", "crs", crsSpec([fhr]));
    for (const t of tenants) {
      const waiting = await waitReady("Kustomization", `crs-${t}`, (c) => c.reason === "DependencyNotReady");
      expect(waiting.message).toBe(`dependency 'HelmRelease/${env.ns}/crds-${t}' is not ready: not found`);
    }
    // The release only on tenant1: tenant1's Kustomization goes ahead, tenant2's keeps waiting for its own.
    await applyFleet("FleetHelmRelease", "crds", releaseSpec(["tenant1"]));
    await waitReady("Kustomization", "crs-tenant1", (c) => c.status === "True");
    await planeCluster("tenant1").client.get(`/api/v1/namespaces/${TARGET}/configmaps/after-crds`);
    const parent = await eventually("the FleetKustomization naming tenant2's wait", async () => {
      const o = await mgmt.client.get<FleetKustomization>(pathOf(SERVED_KINDS.FleetKustomization, env.ns, "crs"));
      const row = o.status?.clusters?.find((c) => c.cluster === "tenant2");
      return o.status?.counts?.ready === 1 && row?.message?.includes("HelmRelease") ? o : undefined;
    });
    expect(parent.status?.clusters?.find((c) => c.cluster === "tenant2")?.message).toBe(
      `dependency 'HelmRelease/${env.ns}/crds-tenant2' is not ready: not found`,
    );
    await expect(
      planeCluster("tenant2").client.get(`/api/v1/namespaces/${TARGET}/configmaps/after-crds`),
    ).rejects.toBeInstanceOf(NotFoundError);
    // tenant2 selected: its release, then its Kustomization, with nothing done to the FleetKustomization.
    await applyFleet("FleetHelmRelease", "crds", releaseSpec([...tenants]));
    await waitReady("Kustomization", "crs-tenant2", (c) => c.status === "True");
    await planeCluster("tenant2").client.get(`/api/v1/namespaces/${TARGET}/configmaps/after-crds`);
  }, 420_000);

  it("names a cycle across kinds, of plain objects and of fleet objects' children", async () => {
    const HR = "helm.toolkit.fluxcd.io/v2";
    await mgmt.client.create(pathOf(SERVED_KINDS.Kustomization, env.ns), {
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      kind: "Kustomization",
      metadata: { name: "loop-ks", namespace: env.ns, labels: shard() },
      spec: {
        interval: "10m",
        path: "./crs",
        prune: true,
        sourceRef: { kind: "GitRepository", name: "apps" },
        dependsOn: [{ apiVersion: HR, kind: "HelmRelease", name: "loop-hr" }],
      },
    });
    await env.createRelease(
      "loop-hr",
      { name: "bench", version: "1.0.0" },
      {
        dependsOn: [{ apiVersion: "kustomize.toolkit.fluxcd.io/v1", kind: "Kustomization", name: "loop-ks" }],
      },
    );
    const ks = await waitReady("Kustomization", "loop-ks", (c) => c.message.startsWith("dependency cycle"));
    expect(ks.reason).toBe("DependencyNotReady");
    expect(ks.message).toBe(
      `dependency cycle: Kustomization/${env.ns}/loop-ks → HelmRelease/${env.ns}/loop-hr → Kustomization/${env.ns}/loop-ks: each waits for the next; remove one of these dependsOn entries`,
    );
    const hr = await eventually("the HelmRelease naming the cycle", async () => {
      const c = condOf(await env.hr("loop-hr"), "Ready");
      return c?.message.startsWith("dependency cycle") ? c : undefined;
    });
    expect(hr.message).toContain(`HelmRelease/${env.ns}/loop-hr → Kustomization/${env.ns}/loop-ks → HelmRelease`);

    // Fleet objects: FleetHelmRelease → FleetKustomization → FleetHelmRelease, per cluster through the children.
    const loopFk = { apiVersion: FLEET, kind: "FleetKustomization", name: "loop-crs" };
    const loopFhr = { apiVersion: FLEET, kind: "FleetHelmRelease", name: "loop-crds" };
    await applyFleet("FleetHelmRelease", "loop-crds", releaseSpec(["tenant1"], [loopFk]));
    await applyFleet("FleetKustomization", "loop-crs", crsSpec([loopFhr], ["tenant1"]));
    const child = await waitReady("HelmRelease", "loop-crds-tenant1", (c) => c.message.startsWith("dependency cycle"));
    expect(child.message).toBe(
      `dependency cycle: HelmRelease/${env.ns}/loop-crds-tenant1 → Kustomization/${env.ns}/loop-crs-tenant1 → HelmRelease/${env.ns}/loop-crds-tenant1: each waits for the next; remove one of these dependsOn entries`,
    );
  }, 300_000);

  it("--no-cross-namespace-refs stalls a fleet object whose dependsOn names another namespace", async () => {
    const other = { apiVersion: FLEET, kind: "FleetHelmRelease", name: "crds", namespace: "elsewhere" };
    await applyFleet("FleetKustomization", "peek", crsSpec([other]));
    const c = await waitReady("FleetKustomization", "peek", (x) => x.reason === "AccessDenied");
    expect(c.message).toBe(
      "can't access 'FleetHelmRelease/elsewhere/crds', cross-namespace references have been blocked",
    );
    // Positive evidence that no child was made: the parent's status was written from this very check.
    const children = await mgmt.client.get<{ items: Kustomization[] }>(pathOf(SERVED_KINDS.Kustomization, env.ns), {
      labelSelector: "fleet.flotilla.dev/fleet-kustomization=peek",
    });
    expect(children.items).toEqual([]);
  }, 180_000);
});
