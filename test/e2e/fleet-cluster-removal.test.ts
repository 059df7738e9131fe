// A cluster that leaves a fleet object's selection is still a running cluster until proven otherwise
// (decision 0031): a Kamaji plane whose label is removed (discovery copies it onto its Cluster) and a
// Cluster deleted by hand each keep their child through the grace period, with a ClusterRemovalPending
// condition naming the cluster and when it is released; then onClusterRemoval applies — Orphan (the
// default) leaves the app running there, Prune removes it. A child name taken by a hand-made
// Kustomization is reported for that cluster and the Kustomization is left exactly as it was.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVED_KINDS, USED_KINDS } from "../../src/api/kinds.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { pathOf } from "../../src/api/paths.js";
import { createController } from "../../src/controllers/kit/setup.js";
import { kamajiDiscoveryController } from "../../src/fleet/kamaji/discovery.js";
import type { Controller } from "../../src/runtime/controller.js";
import { createLogger } from "../../src/runtime/logger.js";
import { serveFleetCrds, startFleetControllers } from "../support/fleet-controllers.js";
import { eventually, planeCluster } from "../support/fleet-context.js";
import { type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";
import {
  childGone,
  createFk,
  fkOf,
  LABEL,
  onPlane,
  pendingRelease,
  removalEnv,
  SHARD,
} from "../support/fleet-removal-env.js";

const GRACE_MS = 40_000;
let h: KustomizeHarness;
const controllers: Controller[] = [];
const mgmt = planeCluster("management");

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "fleetrm" });
  await serveFleetCrds(h);
  await removalEnv(h);
  // The grace period from the controller's flag (--cluster-removal-grace-period), short for the test.
  controllers.push(...(await startFleetControllers(h, `${SHARD}=${h.ns}`, GRACE_MS)));
  const log = createLogger({ level: "error", write: () => {} });
  const discovery = createController(
    kamajiDiscoveryController,
    { cluster: mgmt },
    { cluster: mgmt, log, concurrency: 1, labelSelector: `${SHARD}=${h.ns}` },
  );
  await discovery.start();
  controllers.push(discovery);
  await eventually(
    "Cluster plane1 discovered with its label",
    async () =>
      (await mgmt.client.get<KubeObject>(pathOf(SERVED_KINDS.Cluster, h.ns, "plane1"))).metadata.labels?.[LABEL],
    90_000,
  );
}, 240_000);

afterAll(async () => {
  for (const c of controllers) await c.stop();
  for (const name of ["collide", "kamaji-app", "hand-app"])
    await mgmt.client.delete(pathOf(SERVED_KINDS.FleetKustomization, h.ns, name)).catch(() => {});
  await h?.stop();
}, 120_000);

describe("fleet cluster removal", () => {
  it("a child name taken by a hand-made Kustomization is reported for that cluster and the Kustomization is left alone", async () => {
    await h.createKs("collide-plane1", { path: "./hand", targetNamespace: h.ns });
    const before = await h.waitReady("collide-plane1", 120_000);
    const handCm = await mgmt.client.get<KubeObject>(`/api/v1/namespaces/${h.ns}/configmaps/hand-made`);
    await createFk(h, "collide", { names: ["plane1", "tenant2"] }, "./collide");
    // Positive evidence the fan-out ran: tenant2's child applied its app, plane1's row names the collision.
    const fk = await eventually(
      "tenant2 Ready and plane1's collision reported",
      async () => {
        const fk = await fkOf(h, "collide");
        const rows = new Map(fk.status?.clusters?.map((r) => [r.cluster, r]));
        return rows.get("tenant2")?.ready === "True" && rows.get("plane1")?.message?.includes("already exists")
          ? fk
          : undefined;
      },
      180_000,
    );
    const row = fk.status!.clusters!.find((r) => r.cluster === "plane1")!;
    expect(row).toMatchObject({ child: "collide-plane1", ready: "False" });
    expect(row.message).toBe(
      `Kustomization ${h.ns}/collide-plane1 already exists, not made by FleetKustomization collide: left alone, not adopted; rename or delete it to give cluster plane1 its child`,
    );
    const ready = fk.status!.conditions!.find((c) => c.type === "Ready")!;
    expect(ready.status).toBe("False");
    expect(ready.message).toContain("plane1: Kustomization");
    expect(await onPlane("tenant2", "collide-tenant2")).toBeDefined();
    expect(await onPlane("tenant1", "collide-plane1")).toBeUndefined();
    // Untouched: same generation and spec, no fleet labels, no owner, no field the fleet applied.
    const after = await h.getKs("collide-plane1");
    expect(after.metadata.generation).toBe(before.metadata.generation);
    expect(after.spec).toEqual(before.spec);
    expect(after.metadata.labels ?? {}).toEqual(before.metadata.labels ?? {});
    expect(after.metadata.ownerReferences).toBeUndefined();
    expect(after.metadata.managedFields?.map((m) => m.manager)).not.toContain("flotilla-fleet");
    // The fleet object deleted takes its own children only.
    await mgmt.client.delete(pathOf(SERVED_KINDS.FleetKustomization, h.ns, "collide"));
    await childGone(h, "collide-tenant2");
    const kept = await h.waitReady("collide-plane1");
    expect(kept.metadata.uid).toBe(before.metadata.uid);
    const cm = await mgmt.client.get<KubeObject>(`/api/v1/namespaces/${h.ns}/configmaps/hand-made`);
    expect(cm.metadata.uid).toBe(handCm.metadata.uid);
  }, 400_000);

  it("a Kamaji plane whose label is removed keeps its child through the grace period, said in status, then (Orphan, the default) the app stays running there", async () => {
    await createFk(h, "kamaji-app", { matchLabels: { [LABEL]: "on" } }, "./app");
    const applied = await eventually("app-plane1 on tenant1", () => onPlane("tenant1", "app-plane1"), 180_000);
    await mgmt.client.patch(pathOf(USED_KINDS.TenantControlPlane, h.ns, "plane1"), "merge", {
      metadata: { labels: { [LABEL]: null } },
    });
    const { releaseAt, message } = await pendingRelease(h, "kamaji-app", "plane1");
    expect(message).toContain(
      "cluster plane1 no longer matches spec.clusterSelector: child kamaji-app-plane1 kept until",
    );
    expect(message).toContain("onClusterRemoval: Orphan");
    // Within the grace period: the child and what it applied are still there.
    expect(Date.now()).toBeLessThan(releaseAt);
    expect((await h.getKs("kamaji-app-plane1")).metadata.deletionTimestamp).toBeUndefined();
    expect((await onPlane("tenant1", "app-plane1"))?.metadata.uid).toBe(applied.metadata.uid);
    await childGone(h, "kamaji-app-plane1");
    expect(Date.now()).toBeGreaterThanOrEqual(releaseAt - 1_000);
    // Orphaned: the same object still runs on the plane.
    expect((await onPlane("tenant1", "app-plane1"))?.metadata.uid).toBe(applied.metadata.uid);
    await eventually("the condition cleared", async () =>
      (await fkOf(h, "kamaji-app")).status?.conditions?.every((c) => c.type !== "ClusterRemovalPending"),
    );
  }, 400_000);

  it("a deleted Cluster keeps its child through the grace period, said in status, then (Prune) the app is removed from it", async () => {
    await createFk(h, "hand-app", { names: ["tenant2"] }, "./app", { onClusterRemoval: "Prune" });
    const applied = await eventually("app-tenant2 on tenant2", () => onPlane("tenant2", "app-tenant2"), 180_000);
    await mgmt.client.delete(pathOf(SERVED_KINDS.Cluster, h.ns, "tenant2"));
    const { releaseAt, message } = await pendingRelease(h, "hand-app", "tenant2");
    expect(message).toContain("cluster tenant2 was deleted: child hand-app-tenant2 kept until");
    expect(message).toContain("onClusterRemoval: Prune");
    expect(Date.now()).toBeLessThan(releaseAt);
    expect((await h.getKs("hand-app-tenant2")).metadata.deletionTimestamp).toBeUndefined();
    expect((await onPlane("tenant2", "app-tenant2"))?.metadata.uid).toBe(applied.metadata.uid);
    await eventually(
      "app-tenant2 pruned from tenant2",
      async () => !(await onPlane("tenant2", "app-tenant2")),
      180_000,
    );
    expect(Date.now()).toBeGreaterThanOrEqual(releaseAt - 1_000);
    await childGone(h, "hand-app-tenant2");
    await eventually("the condition cleared", async () =>
      (await fkOf(h, "hand-app")).status?.conditions?.every((c) => c.type !== "ClusterRemovalPending"),
    );
  }, 400_000);
});
