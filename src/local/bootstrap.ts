// What a freshly started plane needs before it is "Ready": RBAC for the kubeadm-style admin
// identity, the kwok node, and on the management plane the Kamaji-shaped tenant records.
// Everything is server-side applied, so running it again is harmless.
import { setTimeout as sleep } from "node:timers/promises";
import { USED_KINDS } from "../api/kinds.js";
import { pathOf } from "../api/paths.js";
import type { KubeClient } from "../kube/client.js";
import { KubeError } from "../kube/errors.js";
import { KWOK_NODE_ANNOTATION } from "./components.js";
import { LOOPBACK } from "./ports.js";
import {
  adminKubeconfigSecret,
  adminKubeconfigSecretName,
  TENANTS_NAMESPACE,
  type TenantPlaneFacts,
  tenantControlPlane,
  tenantControlPlaneCrd,
  tenantControlPlaneStatus,
} from "./kamaji.js";

const FIELD_MANAGER = "flotilla-local";
const KWOK_NODE_NAME = "kwok-node-0";

async function apply(client: KubeClient, path: string, object: unknown): Promise<void> {
  await client.apply(path, object, FIELD_MANAGER, { force: true });
}

/** Polls until `check` returns true; on timeout throws with `what` and the last error seen. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  intervalMs = 250,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
      last = undefined;
    } catch (err) {
      last = err;
    }
    await sleep(intervalMs);
  }
  const why = last instanceof Error ? `: ${last.message}` : "";
  throw new Error(`timed out after ${Math.round(timeoutMs / 1000)}s waiting for ${what}${why}`);
}

export async function isApiserverReady(client: KubeClient): Promise<boolean> {
  try {
    return (await client.request<string>("GET", "/readyz", { timeoutMs: 2000 })) === "ok";
  } catch (err) {
    if (err instanceof KubeError) return false;
    throw err;
  }
}

/** The shared etcd answers /health with health "true". */
export async function isEtcdHealthy(port: number): Promise<boolean> {
  const res = await fetch(`http://${LOOPBACK}:${port}/health`, { signal: AbortSignal.timeout(2000) });
  return res.ok && ((await res.json()) as { health?: string }).health === "true";
}

/** kubeadm binds its admin.conf group to cluster-admin; our planes do the same. */
export async function bootstrapRbac(client: KubeClient): Promise<void> {
  await apply(client, pathOf(USED_KINDS.ClusterRoleBinding, undefined, "kubeadm:cluster-admins"), {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    metadata: { name: "kubeadm:cluster-admins" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" },
    subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: "kubeadm:cluster-admins" }],
  });
}

/** The simulated node kwok keeps Ready and whose pods it runs. */
export async function registerKwokNode(client: KubeClient): Promise<void> {
  await apply(client, pathOf(USED_KINDS.Node, undefined, KWOK_NODE_NAME), {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name: KWOK_NODE_NAME,
      annotations: { [KWOK_NODE_ANNOTATION.key]: KWOK_NODE_ANNOTATION.value, "node.alpha.kubernetes.io/ttl": "0" },
      labels: {
        type: "kwok",
        "kubernetes.io/hostname": KWOK_NODE_NAME,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "node-role.kubernetes.io/agent": "",
      },
    },
    spec: {},
  });
}

interface NodeStatus {
  status?: { conditions?: { type: string; status: string }[] };
}

export async function isNodeReady(client: KubeClient): Promise<boolean> {
  const node = await client.get<NodeStatus>(pathOf(USED_KINDS.Node, undefined, KWOK_NODE_NAME));
  return node.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;
}

/** Pods are refused until the service-account controller made `default` in the namespace. */
export async function hasDefaultServiceAccount(client: KubeClient): Promise<boolean> {
  await client.get(pathOf(USED_KINDS.ServiceAccount, "default", "default"));
  return true;
}

interface Crd {
  status?: { conditions?: { type: string; status: string }[] };
}

/** Namespace `tenants`, the TenantControlPlane CRD, and per tenant its Secret and TCP object. */
export async function registerTenants(
  management: KubeClient,
  tenants: (TenantPlaneFacts & { adminConf: string; superAdminConf: string })[],
  timeoutMs: number,
): Promise<void> {
  await apply(management, pathOf(USED_KINDS.Namespace, undefined, TENANTS_NAMESPACE), {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: TENANTS_NAMESPACE },
  });
  const crdPath = pathOf(USED_KINDS.CustomResourceDefinition, undefined, tenantControlPlaneCrd.metadata.name);
  await apply(management, crdPath, tenantControlPlaneCrd);
  await waitFor(
    "the TenantControlPlane CRD to be established",
    async () =>
      (await management.get<Crd>(crdPath)).status?.conditions?.some(
        (c) => c.type === "Established" && c.status === "True",
      ) ?? false,
    timeoutMs,
  );
  const tcpPath = (name: string) => pathOf(USED_KINDS.TenantControlPlane, TENANTS_NAMESPACE, name);
  for (const t of tenants) {
    await apply(
      management,
      pathOf(USED_KINDS.Secret, TENANTS_NAMESPACE, adminKubeconfigSecretName(t.tenant)),
      adminKubeconfigSecret(t.tenant, t.adminConf, t.superAdminConf),
    );
    // A freshly established CRD can take a moment to be served by every handler.
    await waitFor(
      `TenantControlPlane ${t.tenant}`,
      async () => {
        await apply(management, tcpPath(t.tenant), tenantControlPlane(t));
        return true;
      },
      timeoutMs,
    );
    await apply(management, `${tcpPath(t.tenant)}/status`, tenantControlPlaneStatus(t));
  }
}
