// Kamaji's verdict on a tenant plane, read once for every consumer (decision 0044): the fleet Cluster
// of a TenantControlPlane, and a plain Kustomization/HelmRelease whose kubeconfig Secret is the plane's.
// A plane whose spec.writePermissions refuse writes reports status.kubernetesResources.version.status
// WriteLimited: its consumers hold their applies with a message instead of failing each one.
import { USED_KINDS } from "../../api/kinds.js";
import type { KubeObject } from "../../api/meta/object.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { ForbiddenError, NotFoundError } from "../../kube/errors.js";
import { ReconcileFailure } from "./failure.js";

/** Kamaji's status when the plane's spec.writePermissions refuse some writes. */
export const WRITE_LIMITED = "WriteLimited";

/** The label Kamaji puts on every Secret it writes for a plane (its kubeconfigs among them). */
export const KAMAJI_NAME_LABEL = "kamaji.clastix.io/name";

type TenantControlPlane = KubeObject & { status?: { kubernetesResources?: { version?: { status?: string } } } };

/** The plane's status.kubernetesResources.version.status; NotFoundError when it is gone. */
export async function tenantPlaneStatus(local: Cluster, namespace: string, name: string): Promise<string | undefined> {
  const tcp = await local.client.get<TenantControlPlane>(pathOf(USED_KINDS.TenantControlPlane, namespace, name));
  return tcp.status?.kubernetesResources?.version?.status;
}

/** The TenantControlPlane (same namespace) a kubeconfig Secret belongs to: its owner, else Kamaji's label. */
export function planeOfSecret(secret: KubeObject): string | undefined {
  const owner = secret.metadata.ownerReferences?.find(
    (o) =>
      o.kind === USED_KINDS.TenantControlPlane.kind &&
      o.apiVersion.startsWith(`${USED_KINDS.TenantControlPlane.group}/`),
  );
  return owner?.name ?? secret.metadata.labels?.[KAMAJI_NAME_LABEL];
}

/** What a consumer of a WriteLimited plane says while it holds its applies. */
export const writeLimitedMessage = (plane: string) =>
  `TenantControlPlane ${plane} is WriteLimited (its spec.writePermissions refuse writes): applies are held`;

/**
 * Holds an apply through a kubeconfig Secret belonging to a WriteLimited plane: a wait (retried after
 * `waitMs`, Flux's --requeue-dependency; no Warning event each time), not a failed apply. No verdict (no
 * such plane, no Kamaji CRD, not allowed to read planes) holds nothing: the apiserver then has its say.
 */
export async function holdIfWriteLimited(local: Cluster, secret: KubeObject, waitMs: number): Promise<void> {
  const plane = planeOfSecret(secret);
  const namespace = secret.metadata.namespace;
  if (!plane || !namespace) return;
  let status: string | undefined;
  try {
    status = await tenantPlaneStatus(local, namespace, plane);
  } catch (err) {
    if (err instanceof NotFoundError || err instanceof ForbiddenError) return;
    throw err;
  }
  if (status !== WRITE_LIMITED) return;
  throw new ReconcileFailure(
    WRITE_LIMITED,
    `${writeLimitedMessage(`${namespace}/${plane}`)} until it accepts writes (kubeconfig secret '${namespace}/${secret.metadata.name}')`,
    { retryAfterMs: waitMs },
  );
}
