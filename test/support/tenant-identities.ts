// What the tenant-kubeconfig e2e files share (decision 0044): users of tenant1 made and unmade by RBAC
// (allowed everything, bound to one namespace, revoked), and kubeconfig Secrets written on the
// management plane as Kamaji writes them (rewritten in place on a rotation, labelled with the plane).
import { USED_KINDS } from "../../src/api/kinds.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { pathOf } from "../../src/api/paths.js";
import type { Cluster } from "../../src/kube/cluster.js";
import { tenantControlPlane } from "../../src/local/kamaji.js";
import { planeCluster } from "./fleet-context.js";

const CRB = "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings";
export const tenant1 = planeCluster("tenant1");
const granted: string[] = [];

/** Lets `user` do anything on tenant1, until revoke(). */
export async function allowAll(user: string): Promise<void> {
  await tenant1.client.create(CRB, {
    metadata: { name: user },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" },
    subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: user }],
  });
  granted.push(user);
}
export const revoke = (user: string) => tenant1.client.delete(`${CRB}/${user}`);
/** For afterAll: every binding allowAll made, gone. */
export async function revokeAll(): Promise<void> {
  for (const user of granted) await revoke(user).catch(() => {});
}

/** Lets `user` do anything with ConfigMaps in `namespace` of tenant1, and nothing else. */
export async function allowConfigMapsIn(user: string, namespace: string): Promise<void> {
  const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}`;
  await tenant1.client.create(`${rbac}/roles`, {
    metadata: { name: "apps" },
    rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["*"] }],
  });
  await tenant1.client.create(`${rbac}/rolebindings`, {
    metadata: { name: "apps" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "apps" },
    subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: user }],
  });
}

/** Writes (or rewrites, as a rotation does) a kubeconfig Secret, key `value`, on the management plane. */
export async function writeKubeconfigSecret(
  mgmt: Cluster,
  namespace: string,
  name: string,
  kubeconfig: string,
  labels?: Record<string, string>,
): Promise<void> {
  await mgmt.client.apply(
    `/api/v1/namespaces/${namespace}/secrets/${name}`,
    {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name, ...(labels ? { labels } : {}) },
      data: { value: Buffer.from(kubeconfig).toString("base64") },
    },
    "flotilla-test",
    { force: true },
  );
}

/** A TenantControlPlane in `namespace` (no Kamaji controller here: its status is written as Kamaji would), Ready. */
export async function createTenantPlane(mgmt: Cluster, namespace: string, name: string, secret: string) {
  const tcp = tenantControlPlane({ tenant: name, port: 1, kubernetesVersion: "v1.35.0" });
  const created = await mgmt.client.create<KubeObject>(pathOf(USED_KINDS.TenantControlPlane, namespace), {
    ...tcp,
    metadata: { ...tcp.metadata, namespace },
  });
  await mgmt.client.patch(`${pathOf(USED_KINDS.TenantControlPlane, namespace, name)}/status`, "merge", {
    status: { kubernetesResources: { version: { status: "Ready" } }, kubeconfig: { admin: { secretName: secret } } },
  });
  return created;
}

/** What Kamaji writes when the plane's spec.writePermissions change (WriteLimited) or are lifted (Ready). */
export const setTenantPlaneStatus = (mgmt: Cluster, namespace: string, name: string, status: string) =>
  mgmt.client.patch(`${pathOf(USED_KINDS.TenantControlPlane, namespace, name)}/status`, "merge", {
    status: { kubernetesResources: { version: { status } } },
  });
