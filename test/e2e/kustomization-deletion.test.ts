// Deleting a Kustomization: spec.deletionPolicy as Flux defines it, and flotilla's bounded answer
// when the cluster it applied to is gone (Flux can hang there for ever, kustomize-controller#487).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/kube/errors.js";
import { freePort } from "../../src/local/ports.js";
import { eventually, planeCluster } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

const tenant1 = planeCluster("tenant1");
let h: KustomizeHarness;

const cmRef = (name: string, namespace: string) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace },
});

async function deleteAndWaitGone(name: string, timeoutMs = 30_000) {
  await h.mgmt.client.delete(h.ksPath(name));
  await waitGone(name, timeoutMs);
}

async function waitGone(name: string, timeoutMs = 30_000) {
  await eventually(
    `Kustomization ${name} to be gone`,
    async () => {
      try {
        await h.getKs(name);
        return false;
      } catch (err) {
        return err instanceof NotFoundError;
      }
    },
    timeoutMs,
  );
}

/** Points the copied kubeconfig Secret at a loopback port nobody listens on: the cluster is unreachable. */
async function breakKubeconfig(secret: string) {
  const path = `/api/v1/namespaces/${h.ns}/secrets/${secret}`;
  const s = await h.mgmt.client.get<{ data: Record<string, string> }>(path);
  const conf = Buffer.from(s.data["admin.conf"]!, "base64").toString("utf8");
  const broken = conf.replace(/server: https:\/\/127\.0\.0\.1:\d+/, `server: https://127.0.0.1:${await freePort()}`);
  expect(broken).not.toBe(conf);
  await h.mgmt.client.patch(path, "merge", { data: { "admin.conf": Buffer.from(broken).toString("base64") } });
}

async function warningEvents(name: string, reason: string) {
  const list = await h.mgmt.client.get<{
    items: { reason: string; message: string; involvedObject: { name: string } }[];
  }>(`/api/v1/namespaces/${h.ns}/events`);
  return list.items.filter((e) => e.involvedObject.name === name && e.reason === reason).map((e) => e.message);
}

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "ksdel" });
  const ns = h.ns;
  await h.commit(
    {
      "mirror-prune/cm.yaml": configMap("mirror-pruned", ns),
      "mirror-keep/cm.yaml": configMap("mirror-kept", ns),
      "delete/cm.yaml": configMap("deleted-anyway", ns),
      "orphan/cm.yaml": configMap("orphaned", ns),
      "witness/cm.yaml": configMap("witness", ns),
      "wait/cm.yaml": JSON.stringify({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "held", namespace: ns, finalizers: ["example.com/hold"] },
        data: { a: "1" },
      }),
      "remote-a/cm.yaml": configMap(`${ns}-remote-a`, "default"),
      "remote-b/cm.yaml": configMap(`${ns}-remote-b`, "default"),
      "remote-c/cm.yaml": configMap(`${ns}-remote-c`, "default"),
    },
    "deletion cases",
  );
});

afterAll(async () => {
  await h?.stop();
});

describe("Kustomization deletion", () => {
  it("MirrorPrune (the default) deletes what was applied when prune is true and leaves it when prune is false", async () => {
    await h.createKs("mirror-prune", { path: "./mirror-prune", prune: true });
    await h.createKs("mirror-keep", { path: "./mirror-keep", prune: false });
    await Promise.all([h.waitReady("mirror-prune"), h.waitReady("mirror-keep")]);
    await Promise.all([deleteAndWaitGone("mirror-prune"), deleteAndWaitGone("mirror-keep")]);
    expect(await h.mgmt.get(cmRef("mirror-pruned", h.ns))).toBeUndefined();
    expect(await h.mgmt.get(cmRef("mirror-kept", h.ns))).toBeDefined();
  });

  it("Delete deletes even with prune false; Orphan leaves the objects even with prune true", async () => {
    await h.createKs("delete", { path: "./delete", prune: false, deletionPolicy: "Delete" });
    await h.createKs("orphan", { path: "./orphan", prune: true, deletionPolicy: "Orphan" });
    await Promise.all([h.waitReady("delete"), h.waitReady("orphan")]);
    await Promise.all([deleteAndWaitGone("delete"), deleteAndWaitGone("orphan")]);
    expect(await h.mgmt.get(cmRef("deleted-anyway", h.ns))).toBeUndefined();
    expect(await h.mgmt.get(cmRef("orphaned", h.ns))).toBeDefined();
  });

  it("WaitForTermination keeps the Kustomization until its objects have left the API", async () => {
    await h.createKs("wait", { path: "./wait", deletionPolicy: "WaitForTermination", timeout: "2m" });
    await h.waitReady("wait");
    await h.mgmt.client.delete(h.ksPath("wait"));
    // The ConfigMap's own finalizer holds it in Terminating; the Kustomization waits with it.
    await eventually("the ConfigMap to be terminating", async () =>
      Boolean((await h.mgmt.get(cmRef("held", h.ns)))?.metadata.deletionTimestamp),
    );
    // Positive evidence instead of a pause: the same controller has since run a whole reconcile of another
    // Kustomization (created after the ConfigMap went terminating), and "wait" is still there, waiting.
    await h.createKs("witness", { path: "./witness", prune: true });
    await h.waitReady("witness");
    expect((await h.getKs("wait")).metadata.deletionTimestamp).toBeDefined();

    await h.mgmt.client.patch(`/api/v1/namespaces/${h.ns}/configmaps/held`, "merge", {
      metadata: { finalizers: null },
    });
    await waitGone("wait");
    expect(await h.mgmt.get(cmRef("held", h.ns))).toBeUndefined();
  });

  it("a remote cluster that does not answer blocks deletion with a status naming what to do, and deletionPolicy: Orphan lets it go", async () => {
    const secret = await h.copyAdminKubeconfig("tenant1");
    await h.createKs("remote-a", {
      path: "./remote-a",
      kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
    });
    await h.waitReady("remote-a");
    expect(await tenant1.get(cmRef(`${h.ns}-remote-a`, "default"))).toBeDefined();

    await breakKubeconfig(secret);
    await h.mgmt.client.delete(h.ksPath("remote-a"));
    const blocked = await eventually("deletion to be reported as blocked", async () => {
      const ready = (await h.getKs("remote-a")).status?.conditions?.find((c) => c.type === "Ready");
      return ready?.reason === "PruneFailed" ? ready : undefined;
    });
    expect(blocked.status).toBe("False");
    expect(blocked.message).toMatch(/^deletion blocked: .*ECONNREFUSED/);
    expect(blocked.message).toContain("set spec.deletionPolicy: Orphan to stop now");
    expect(await warningEvents("remote-a", "PruneFailed")).not.toHaveLength(0);

    await h.mgmt.client.patch(h.ksPath("remote-a"), "merge", { spec: { deletionPolicy: "Orphan" } });
    await waitGone("remote-a");
    // Orphaned, as asked: the object is still on tenant1.
    expect(await tenant1.get(cmRef(`${h.ns}-remote-a`, "default"))).toBeDefined();
    await tenant1.client.delete(`/api/v1/namespaces/default/configmaps/${h.ns}-remote-a`);
  });

  it("gives up after spec.timeout when the remote cluster never answers, and says what it left behind", async () => {
    const secret = "tenant1-admin-kubeconfig";
    await h.mgmt.client
      .delete(`/api/v1/namespaces/${h.ns}/secrets/${secret}`)
      .catch(() => undefined)
      .then(() => h.copyAdminKubeconfig("tenant1"));
    await h.createKs("remote-b", {
      path: "./remote-b",
      timeout: "5s",
      retryInterval: "2s",
      kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
    });
    await h.waitReady("remote-b");
    await breakKubeconfig(secret);
    const started = Date.now();
    await h.mgmt.client.delete(h.ksPath("remote-b"));
    await waitGone("remote-b", 30_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
    const gaveUp = await warningEvents("remote-b", "PruneFailed");
    expect(gaveUp.some((m) => m.startsWith("gave up garbage collection after spec.timeout; left behind:"))).toBe(true);
    expect(await tenant1.get(cmRef(`${h.ns}-remote-b`, "default"))).toBeDefined();
    await tenant1.client.delete(`/api/v1/namespaces/default/configmaps/${h.ns}-remote-b`);
  });

  it("a deleted kubeconfig Secret means the cluster is gone: deletion skips garbage collection and completes", async () => {
    await h.mgmt.client.delete(`/api/v1/namespaces/${h.ns}/secrets/tenant1-admin-kubeconfig`).catch(() => undefined);
    const secret = await h.copyAdminKubeconfig("tenant1");
    await h.createKs("remote-c", {
      path: "./remote-c",
      kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
    });
    await h.waitReady("remote-c");
    await h.mgmt.client.delete(`/api/v1/namespaces/${h.ns}/secrets/${secret}`);
    await deleteAndWaitGone("remote-c");
    const skipped = await warningEvents("remote-c", "PruneSkipped");
    expect(skipped[0]).toContain(`kubeconfig secret '${h.ns}/${secret}'`);
    await tenant1.client.delete(`/api/v1/namespaces/default/configmaps/${h.ns}-remote-c`);
  });
});

describe("Kustomization status.history", () => {
  it("keeps one snapshot per applied set and outcome, newest first, counting repeats", async () => {
    await h.commit({ "history/cm.yaml": configMap("history-1", h.ns) }, "history v1");
    await h.createKs("history", { path: "./history" });
    const first = await h.waitReady("history");
    const rev1 = first.status!.lastAppliedRevision!;
    await h.reconcileNow("history");
    let k = await h.getKs("history");
    expect(k.status!.history).toHaveLength(1);
    expect(k.status!.history![0]).toMatchObject({
      lastReconciledStatus: "ReconciliationSucceeded",
      totalReconciliations: 2,
      metadata: { revision: rev1 },
    });
    expect(k.status!.history![0]!.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(k.status!.history![0]!.lastReconciledDuration).toMatch(/^[\d.]+(ms|s)$/);

    await h.commit({ "history/cm.yaml": configMap("history-1", h.ns, { a: "2" }) }, "history v2");
    k = await eventually("the new revision applied", async () => {
      const got = await h.getKs("history");
      return got.status?.lastAppliedRevision !== rev1 && got.status?.history?.length === 2 ? got : undefined;
    });
    expect(k.status!.history!.map((s) => [s.metadata?.revision, s.totalReconciliations])).toEqual([
      [k.status!.lastAppliedRevision, 1],
      [rev1, 2],
    ]);
  });
});
