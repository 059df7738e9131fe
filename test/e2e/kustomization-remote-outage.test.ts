// One tenant cluster down must not stop the fleet: only the Kustomizations that target it go not
// Ready, the others keep applying new revisions, and the down one converges when it is back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startComponent, stopComponent } from "../../src/local/index.js";
import { eventually, planeCluster, testFleet } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

const tenant1 = planeCluster("tenant1");
const tenant2 = planeCluster("tenant2");
let h: KustomizeHarness;
let tenant1Stopped = false;

const remoteCm = (name: string) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: "default" },
});

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "outage" });
});

afterAll(async () => {
  // Never leave the shared fleet with a plane down.
  if (tenant1Stopped) await startComponent(testFleet().dir, "tenant1", "kube-apiserver");
  await h?.stop();
  for (const [plane, name] of [
    [tenant1, `${h.ns}-app`],
    [tenant2, `${h.ns}-app`],
  ] as const)
    await plane.client.delete(`/api/v1/namespaces/default/configmaps/${name}`).catch(() => undefined);
});

describe("remote cluster outage", () => {
  it("stopping tenant1's apiserver makes only tenant1's Kustomization not Ready; tenant2 keeps reconciling; tenant1 converges when it is back", async () => {
    const name = `${h.ns}-app`;
    await h.commit({ "remote/app.yaml": configMap(name, "default", { v: "1" }) }, "v1");
    for (const t of ["tenant1", "tenant2"]) {
      const secret = await h.copyAdminKubeconfig(t);
      await h.createKs(`${t}-apps`, {
        path: "./remote",
        retryInterval: "2s",
        kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
      });
    }
    await Promise.all([h.waitReady("tenant1-apps"), h.waitReady("tenant2-apps")]);

    await stopComponent(testFleet().dir, "tenant1", "kube-apiserver");
    tenant1Stopped = true;
    await h.commit({ "remote/app.yaml": configMap(name, "default", { v: "2" }) }, "v2");
    const head = `main@sha1:${await h.repo.head()}`;

    const down = await h.waitNotReady("tenant1-apps", "ReconciliationFailed");
    expect(down.message).toMatch(/ECONNREFUSED|connect/);
    const t2 = await eventually("tenant2 at the new revision", async () => {
      const k = await h.getKs("tenant2-apps");
      return k.status?.lastAppliedRevision === head ? k : undefined;
    });
    expect(t2.status!.conditions!.find((c) => c.type === "Ready")!.status).toBe("True");
    expect((await tenant2.get(remoteCm(name)))?.data).toEqual({ v: "2" });
    // tenant1's last applied revision is still the old one: nothing pretends it got there.
    expect((await h.getKs("tenant1-apps")).status!.lastAppliedRevision).not.toBe(head);
    expect((await h.getKs("tenant1-apps")).status!.lastAttemptedRevision).toBe(head);

    await startComponent(testFleet().dir, "tenant1", "kube-apiserver");
    tenant1Stopped = false;
    await eventually(
      "tenant1 converged at the new revision",
      async () => {
        const k = await h.getKs("tenant1-apps");
        const ready = k.status?.conditions?.find((c) => c.type === "Ready");
        return k.status?.lastAppliedRevision === head && ready?.status === "True";
      },
      60_000,
    );
    expect((await tenant1.get(remoteCm(name)))?.data).toEqual({ v: "2" });
  });
});
