// A tenant's admin certificate is re-issued (as Kamaji does when it rotates them) and its kubeconfig
// Secret rewritten: the next reconcile talks to the tenant as the new identity, and the process's
// cluster pool closes the connection it held for the old one.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KubeClient } from "../../src/kube/client.js";
import { clusterPool, fingerprintOf } from "../../src/kube/cluster-pool.js";
import { ForbiddenError } from "../../src/kube/errors.js";
import { endpointFromKubeconfig } from "../../src/kube/kubeconfig.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";
import { issueKubeconfig } from "../support/plane-identity.js";

const tenant1 = planeCluster("tenant1");
let h: KustomizeHarness;
let remoteNs: string;

const SECRET = "tenant1-rotating-kubeconfig";
const suffix = randomBytes(3).toString("hex");
const users = { old: `rotation-old-${suffix}`, new: `rotation-new-${suffix}` };

/** Lets `user` manage ConfigMaps in the test's namespace on tenant1, and nothing else. */
async function allowConfigMaps(user: string) {
  await tenant1.client.create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${remoteNs}/rolebindings`, {
    metadata: { name: user },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "configmaps" },
    subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: user }],
  });
}

async function writeKubeconfigSecret(kubeconfig: string) {
  const data = { "admin.conf": Buffer.from(kubeconfig).toString("base64") };
  await h.mgmt.client.apply(
    `/api/v1/namespaces/${h.ns}/secrets/${SECRET}`,
    { apiVersion: "v1", kind: "Secret", metadata: { name: SECRET }, data },
    "flotilla-test",
    { force: true },
  );
}

const remoteData = async () =>
  (await tenant1.client.get<{ data: Record<string, string> }>(`/api/v1/namespaces/${remoteNs}/configmaps/rotated`))
    .data;

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "ksrot" });
  remoteNs = await testNamespace(tenant1.client, "rot");
  await tenant1.client.create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${remoteNs}/roles`, {
    metadata: { name: "configmaps" },
    rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["*"] }],
  });
}, 180_000);

afterAll(async () => {
  await h?.stop();
});

describe("a tenant kubeconfig Secret rewritten with a newly issued client certificate", () => {
  it("is used at the next reconcile, and the pool closes the connection of the old certificate", async () => {
    const source = `secret ${h.ns}/${SECRET}`;
    const oldKubeconfig = issueKubeconfig("tenant1", { commonName: users.old });
    const newKubeconfig = issueKubeconfig("tenant1", { commonName: users.new });
    const oldEndpoint = endpointFromKubeconfig(oldKubeconfig, { source: "old" });
    const newEndpoint = endpointFromKubeconfig(newKubeconfig, { source: "new" });
    await allowConfigMaps(users.old);
    await writeKubeconfigSecret(oldKubeconfig);
    await h.commit({ "rotation/cm.yaml": configMap("rotated", remoteNs, { v: "1" }) }, "v1");
    await h.createKs("rotation", {
      path: "./rotation",
      kubeConfig: { secretRef: { name: SECRET, key: "admin.conf" } },
    });
    await h.waitReady("rotation");
    expect(await remoteData()).toEqual({ v: "1" });

    // The reconcile's connection is the old certificate's pool entry, named by the Secret.
    const oldEntry = clusterPool.acquire(oldEndpoint);
    expect(oldEntry.sources).toEqual(new Set([source]));
    expect(oldEntry.connected).toBe(true);
    const before = clusterPool.stats();

    // Rotate: the new identity may write, the old one no longer may; then a new revision to apply.
    await allowConfigMaps(users.new);
    await tenant1.client.delete(`/apis/rbac.authorization.k8s.io/v1/namespaces/${remoteNs}/rolebindings/${users.old}`);
    await writeKubeconfigSecret(newKubeconfig);
    await h.commit({ "rotation/cm.yaml": configMap("rotated", remoteNs, { v: "2" }) }, "v2");
    await h.reconcileNow("rotation");

    // Written by the new identity: the old one is denied by now, so no other could have.
    await eventually("the new revision applied on tenant1", async () => (await remoteData()).v === "2");
    const ks = await h.waitReady("rotation");
    expect(ks.status?.lastAppliedRevision).toBe(ks.status?.lastAttemptedRevision);

    // The old entry is closed with its connection; the Secret's name points at the new credential.
    expect(oldEntry.closed).toBe(true);
    expect(oldEntry.connected).toBe(false);
    const after = clusterPool.stats();
    expect(after.closed.replaced).toBeGreaterThan(before.closed.replaced);
    expect(after.connectionsClosed).toBeGreaterThan(before.connectionsClosed);
    expect(after.entries.find((e) => e.fingerprint === oldEntry.fingerprint)).toBeUndefined();
    expect(after.entries.find((e) => e.fingerprint === fingerprintOf(newEndpoint))?.sources).toEqual([source]);

    // And the apiserver agrees the old certificate's user may do nothing here any more.
    const err = await new KubeClient(oldEndpoint)
      .get(`/api/v1/namespaces/${remoteNs}/configmaps/rotated`)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForbiddenError);
    expect((err as Error).message).toContain(users.old);
  });
});
