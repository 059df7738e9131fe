// A fan-out with one tenant plane down: tenant1's kube-apiserver is stopped while a FleetKustomization
// serves tenant1 and tenant2. Its Cluster turns not Ready and only its child stops being Ready; tenant2
// applies the next commit meanwhile; the down cluster's child is kept and held (suspended: nothing pruned
// there, nothing deleted here) and, with the plane back, it resumes and tenant1 converges to that commit
// with its objects never re-created.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetCluster } from "../../src/api/fleet/cluster.js";
import type { FleetKustomization } from "../../src/api/fleet/fleet-kustomization.js";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { startComponent, stopComponent } from "../../src/local/index.js";
import type { Controller } from "../../src/runtime/controller.js";
import { serveFleetCrds, startFleetControllers } from "../support/fleet-controllers.js";
import { eventually, planeCluster, testFleet, testNamespace } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

const SHARD = "flotilla.dev/shard";
const tenants = { tenant1: planeCluster("tenant1"), tenant2: planeCluster("tenant2") };
const remoteNs: Record<string, string> = {};
let h: KustomizeHarness;
let tenant1Stopped = false;
const controllers: Controller[] = [];
const fkPath = () => pathOf(SERVED_KINDS.FleetKustomization, h.ns, "app");
const fk = () => h.mgmt.client.get<FleetKustomization>(fkPath());

async function remote(t: keyof typeof tenants): Promise<{ uid: string; v: string } | undefined> {
  const list = await tenants[t].client.get<{ items: { metadata: { uid: string }; data: { v: string } }[] }>(
    `/api/v1/namespaces/${remoteNs[t]}/configmaps?fieldSelector=metadata.name%3Dapp`,
  );
  const cm = list.items[0];
  return cm && { uid: cm.metadata.uid, v: cm.data.v };
}

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "fleetdown" });
  await serveFleetCrds(h);
  for (const t of ["tenant1", "tenant2"] as const) {
    remoteNs[t] = await testNamespace(tenants[t].client, "fleetdown");
    const secret = await h.copyAdminKubeconfig(t);
    await h.mgmt.client.create(pathOf(SERVED_KINDS.Cluster, h.ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "Cluster",
      metadata: { name: t, namespace: h.ns, labels: { [SHARD]: h.ns } },
      spec: {
        kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
        variables: { target_ns: remoteNs[t]! },
        interval: "5s",
      },
    });
  }
  controllers.push(...(await startFleetControllers(h, `${SHARD}=${h.ns}`)));
  await h.commit({ "app/cm.yaml": configMap("app", "${target_ns}", { v: "1" }) }, "v1");
}, 180_000);

afterAll(async () => {
  // Never leave the shared fleet with a plane down.
  if (tenant1Stopped) await startComponent(testFleet().dir, "tenant1", "kube-apiserver");
  for (const c of controllers) await c.stop();
  await h.mgmt.client.delete(fkPath()).catch(() => {});
  await h?.stop();
}, 120_000);

describe("FleetKustomization with a tenant plane down", () => {
  it("only that cluster's child is not Ready, the others apply new commits, and it catches up when back", async () => {
    await h.mgmt.client.create(pathOf(SERVED_KINDS.FleetKustomization, h.ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "FleetKustomization",
      metadata: { name: "app", namespace: h.ns, labels: { [SHARD]: h.ns } },
      spec: {
        clusterSelector: {},
        template: {
          spec: {
            sourceRef: { kind: "GitRepository", name: "platform" },
            path: "./app",
            interval: "1m",
            retryInterval: "5s",
            prune: true,
          },
        },
      },
    });
    await eventually(
      "v1 on both planes",
      async () => (await remote("tenant1"))?.v === "1" && (await remote("tenant2"))?.v === "1",
      120_000,
    );
    const before = (await remote("tenant1"))!;

    await stopComponent(testFleet().dir, "tenant1", "kube-apiserver");
    tenant1Stopped = true;
    await eventually(
      "tenant1's Cluster not Ready",
      async () =>
        (await h.mgmt.client.get<FleetCluster>(pathOf(SERVED_KINDS.Cluster, h.ns, "tenant1"))).status?.conditions?.find(
          (c) => c.type === "Ready",
        )?.status === "False",
      60_000,
    );
    await h.commit({ "app/cm.yaml": configMap("app", "${target_ns}", { v: "2" }) }, "v2");
    const head = `main@sha1:${await h.repo.head()}`;
    await eventually("v2 on tenant2 while tenant1 is down", async () => (await remote("tenant2"))?.v === "2", 120_000);
    const down = await eventually(
      "the FleetKustomization listing tenant1 alone as not Ready",
      async () => {
        const o = await fk();
        const rows = o.status?.clusters ?? [];
        const t1 = rows.find((r) => r.cluster === "tenant1");
        const t2 = rows.find((r) => r.cluster === "tenant2");
        return t1?.ready !== "True" && t2?.ready === "True" && t2.revision === head ? o : undefined;
      },
      120_000,
    );
    expect(down.status?.counts).toMatchObject({ total: 2, ready: 1 });
    expect(down.status?.conditions?.find((c) => c.type === "Ready")?.message).toMatch(
      /^1\/2 clusters ready; tenant1: /,
    );
    // The down cluster keeps its child, held (suspended): nothing of its is deleted, pruned or retried.
    const held = await h.getKs("app-tenant1");
    expect(held.metadata.deletionTimestamp).toBeUndefined();
    expect(held.spec.suspend).toBe(true);
    expect(down.status?.clusters?.find((r) => r.cluster === "tenant1")?.message).toMatch(
      /^cluster tenant1 not Ready: .* \(child held\)$/,
    );

    await startComponent(testFleet().dir, "tenant1", "kube-apiserver");
    tenant1Stopped = false;
    await eventually("v2 on tenant1 once it is back", async () => (await remote("tenant1"))?.v === "2", 180_000);
    expect((await remote("tenant1"))!.uid).toBe(before.uid);
    expect((await h.getKs("app-tenant1")).spec.suspend).toBe(false);
    await eventually(
      "the FleetKustomization Ready with both clusters at the commit",
      async () => {
        const o = await fk();
        return (
          o.status?.conditions?.find((c) => c.type === "Ready")?.status === "True" &&
          o.status.clusters?.every((r) => r.revision === head)
        );
      },
      120_000,
    );
  }, 480_000);
});
