// Fault: the identity in a tenant's kubeconfig Secret is revoked — its RBAC binding removed (the user
// is Forbidden), then its certificate replaced by one the cluster does not trust (as after a CA
// rotation: Unauthorized). Each time the Kustomization is not Ready naming the refusal and the
// identity, and nothing on the tenant is pruned or changed; once fixed it converges. Rotation to a new
// valid certificate is kustomization-credential-rotation's subject.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";
import { issueKubeconfig } from "../support/plane-identity.js";

const tenant1 = planeCluster("tenant1");
const SECRET = "tenant1-kubeconfig";
const USER = `revoked-${randomBytes(3).toString("hex")}`;
let h: KustomizeHarness;
let remoteNs: string;

const rbac = "/apis/rbac.authorization.k8s.io/v1/namespaces";
const bindUser = () =>
  tenant1.client.create(`${rbac}/${remoteNs}/rolebindings`, {
    metadata: { name: USER },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "configmaps" },
    subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: USER }],
  });

async function writeKubeconfigSecret(kubeconfig: string) {
  const data = { "admin.conf": Buffer.from(kubeconfig).toString("base64") };
  const secret = { apiVersion: "v1", kind: "Secret", metadata: { name: SECRET }, data };
  await h.mgmt.client.apply(`/api/v1/namespaces/${h.ns}/secrets/${SECRET}`, secret, "flotilla-test", { force: true });
}

async function remote(): Promise<Record<string, { uid: string; v: string }>> {
  const list = await tenant1.client.get<{ items: { metadata: { name: string; uid: string }; data: { v: string } }[] }>(
    `/api/v1/namespaces/${remoteNs}/configmaps?labelSelector=${encodeURIComponent("kustomize.toolkit.fluxcd.io/name=revoke")}`,
  );
  return Object.fromEntries(list.items.map((i) => [i.metadata.name, { uid: i.metadata.uid, v: i.data.v }]));
}

/** A requested reconcile fails with `pattern` in the Ready message; nothing changed on the tenant. */
async function refusedWithoutHarm(pattern: RegExp, v1: Awaited<ReturnType<typeof remote>>, rev1: string) {
  const at = new Date().toISOString();
  await h.mgmt.client.patch(h.ksPath("revoke"), "merge", {
    metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } },
  });
  // Read as one state: a reconcile queued behind the requested one shows Ready=Unknown while it runs.
  const ks = await eventually("the requested reconcile refused", async () => {
    const k = await h.getKs("revoke");
    const ready = k.status?.conditions?.find((c) => c.type === "Ready");
    return k.status?.lastHandledReconcileAt === at && ready?.status === "False" && pattern.test(ready.message)
      ? k
      : undefined;
  });
  const ready = ks.status!.conditions!.find((c) => c.type === "Ready")!;
  expect(ks.status!.lastAppliedRevision).toBe(rev1);
  expect(ks.status!.inventory!.entries.map((e) => e.id).sort()).toEqual([
    `${remoteNs}_a__ConfigMap`,
    `${remoteNs}_b__ConfigMap`,
  ]);
  expect(await remote()).toEqual(v1);
  return ready.message;
}

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "revoke" });
  remoteNs = await testNamespace(tenant1.client, "revoke");
  await tenant1.client.create(`${rbac}/${remoteNs}/roles`, {
    metadata: { name: "configmaps" },
    rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["*"] }],
  });
}, 180_000);

afterAll(async () => {
  await h?.stop();
});

describe("fault: a tenant kubeconfig's identity revoked", () => {
  it("is not Ready naming the refusal and the identity, prunes nothing, and converges once fixed", async () => {
    await bindUser();
    await writeKubeconfigSecret(issueKubeconfig("tenant1", { commonName: USER }));
    await h.commit(
      { "revoke/a.yaml": configMap("a", remoteNs, { v: "1" }), "revoke/b.yaml": configMap("b", remoteNs, { v: "1" }) },
      "v1",
    );
    await h.createKs("revoke", { path: "./revoke", kubeConfig: { secretRef: { name: SECRET, key: "admin.conf" } } });
    const rev1 = (await h.waitReady("revoke")).status!.lastAppliedRevision!;
    const v1 = await remote();
    expect(Object.keys(v1).sort()).toEqual(["a", "b"]);

    // RBAC binding removed: Forbidden, as the user the certificate names.
    await tenant1.client.delete(`${rbac}/${remoteNs}/rolebindings/${USER}`);
    // Then a new revision that drops b and changes a: nothing of it may happen while the identity is refused.
    await h.commit({ "revoke/a.yaml": configMap("a", remoteNs, { v: "2" }), "revoke/b.yaml": null }, "v2");

    const forbidden = await refusedWithoutHarm(/forbidden/i, v1, rev1);
    expect(forbidden).toContain(`"${USER}"`);

    // The certificate replaced by one a CA the cluster does not trust signed (then the user bound
    // again, in that order, so no reconcile in between can use a valid identity): Unauthorized.
    await writeKubeconfigSecret(issueKubeconfig("tenant1", { commonName: USER }, "stranger"));
    await bindUser();
    const unauthorized = await refusedWithoutHarm(/Unauthorized/i, v1, rev1);
    expect(unauthorized).toContain(`kubeconfig secret '${h.ns}/${SECRET}'`);

    // Fixed: a trusted certificate again. v2 converges: a changed in place, b pruned as Git says.
    await writeKubeconfigSecret(issueKubeconfig("tenant1", { commonName: USER }));
    await h.reconcileNow("revoke");
    const ks = await h.waitReady("revoke");
    expect(ks.status!.lastAppliedRevision).not.toBe(rev1);
    expect(await remote()).toEqual({ a: { uid: v1.a!.uid, v: "2" } });
  }, 300_000);
});
