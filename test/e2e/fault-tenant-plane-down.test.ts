// Fault: a tenant cluster is down for minutes (tenant1's kube-apiserver stopped for at least two
// minutes) while Kustomizations target it and tenant2 through their kubeconfig Secrets. Throughout,
// only tenant1's Kustomization is not Ready, naming the cluster it cannot reach, and tenant2's applies
// every new commit; when tenant1 is back it converges, its objects never pruned or re-created.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startComponent, stopComponent } from "../../src/local/index.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import type { Condition } from "../../src/api/meta/conditions.js";
import { eventually, plane, planeCluster, testFleet, testNamespace } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

const OUTAGE_MS = 120_000;
const tenants = { tenant1: planeCluster("tenant1"), tenant2: planeCluster("tenant2") };
const remoteNs: Record<string, string> = {};
let h: KustomizeHarness;
let tenant1Stopped = false;

const files = (v: string) =>
  Object.fromEntries(
    (["tenant1", "tenant2"] as const).flatMap((t) =>
      ["a", "b"].map((n) => [`${t}/${n}.yaml`, configMap(n, remoteNs[t], { v })]),
    ),
  );

async function remote(t: keyof typeof tenants): Promise<Record<string, { uid: string; v: string }>> {
  const list = await tenants[t].client.get<{
    items: { metadata: { name: string; uid: string }; data: { v: string } }[];
  }>(
    `/api/v1/namespaces/${remoteNs[t]}/configmaps?labelSelector=${encodeURIComponent("kustomize.toolkit.fluxcd.io/name")}`,
  );
  return Object.fromEntries(list.items.map((i) => [i.metadata.name, { uid: i.metadata.uid, v: i.data.v }]));
}

/**
 * Requests a reconcile of tenant1's Kustomization and waits until it is observed failing at `head`
 * (read as one state: a reconcile the new commit triggers may show Ready=Unknown in between).
 */
async function refusedAt(head: string): Promise<Condition> {
  const at = new Date().toISOString();
  await h.mgmt.client.patch(h.ksPath("tenant1"), "merge", {
    metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } },
  });
  return eventually("tenant1's requested reconcile failing at the new commit", async () => {
    const k = await h.getKs("tenant1");
    const ready = k.status?.conditions?.find((c) => c.type === "Ready");
    return k.status?.lastHandledReconcileAt === at &&
      k.status.lastAttemptedRevision === head &&
      ready?.status === "False"
      ? ready
      : undefined;
  });
}

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "planedown" });
  for (const t of ["tenant1", "tenant2"] as const) remoteNs[t] = await testNamespace(tenants[t].client, "planedown");
}, 180_000);

afterAll(async () => {
  // Never leave the shared fleet with a plane down.
  if (tenant1Stopped) await startComponent(testFleet().dir, "tenant1", "kube-apiserver");
  await h?.stop();
});

describe("fault: a tenant plane down for minutes", () => {
  it("only its Kustomization is not Ready, tenant2 keeps applying, and it converges without prunes when back", async () => {
    await h.commit(files("1"), "v1");
    for (const t of ["tenant1", "tenant2"]) {
      const secret = await h.copyAdminKubeconfig(t);
      await h.createKs(t, {
        path: `./${t}`,
        retryInterval: "10s",
        kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
      });
    }
    await Promise.all([h.waitReady("tenant1"), h.waitReady("tenant2")]);
    const before = await remote("tenant1");
    expect(Object.keys(before).sort()).toEqual(["a", "b"]);

    await stopComponent(testFleet().dir, "tenant1", "kube-apiserver");
    tenant1Stopped = true;
    const downAt = Date.now();
    // The outage is filled with evidence, not a sleep: round after round, a new commit that tenant2
    // applies while tenant1's requested reconcile is observed failing on the unreachable cluster.
    let round = 1;
    let head = "";
    while (Date.now() - downAt < OUTAGE_MS) {
      round++;
      await h.commit(files(String(round)), `v${round}`);
      head = `main@sha1:${await h.repo.head()}`;
      const ready = await refusedAt(head);
      expect(ready.message).toContain(`https://127.0.0.1:${plane("tenant1").port}`);
      expect(ready.message).toMatch(/unreachable/);
      await h.reconcileNow("tenant2");
      const t2 = await h.waitReady("tenant2");
      expect(t2.status!.lastAppliedRevision).toBe(head);
      expect((await remote("tenant2")).a!.v).toBe(String(round));
    }
    const downForMs = Date.now() - downAt;
    expect(round).toBeGreaterThan(2);

    await startComponent(testFleet().dir, "tenant1", "kube-apiserver");
    tenant1Stopped = false;
    const back = await h.waitReady("tenant1", 120_000);
    expect(back.status!.lastAppliedRevision).toBe(head);
    const after = await remote("tenant1");
    expect(after).toEqual({
      a: { uid: before.a!.uid, v: String(round) },
      b: { uid: before.b!.uid, v: String(round) },
    });
    console.info(`tenant1 was down for ${(downForMs / 1000).toFixed(0)} s (${round - 1} commits meanwhile)`);
  }, 420_000);
});
