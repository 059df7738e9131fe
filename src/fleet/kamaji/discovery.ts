// Kamaji discovery: every TenantControlPlane gets a Cluster of the same name in its namespace — its
// labels copied (fleet selectors match them), its kubeconfig the plane's admin Secret
// (status.kubeconfig.admin.secretName, key admin.conf), owned by the plane so deleting the plane
// deletes the Cluster (the garbage collector follows the owner reference). Applied server-side with
// one field manager, so a re-run changes nothing and labels a user adds by hand are kept.
import { apiVersionOf, SERVED_KINDS, USED_KINDS } from "../../api/kinds.js";
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { KubeObject } from "../../api/meta/object.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import type { ReconcileContext, Reconciler, Request, Result } from "../../runtime/controller.js";
import type { ControllerDeps, ControllerSetup } from "../../controllers/kit/setup.js";

export const DISCOVERY_FIELD_MANAGER = "flotilla-kamaji-discovery";
/** Marks a Cluster made by discovery (and says from what). */
export const DISCOVERED_LABEL = "fleet.flotilla.dev/discovered-from";
export const KAMAJI_KUBECONFIG_KEY = "admin.conf";

type TenantControlPlane = KubeObject & {
  status?: { kubeconfig?: { admin?: { secretName?: string } } };
};

/** The Cluster a TenantControlPlane stands for, or undefined while Kamaji has not written its kubeconfig. */
export function clusterFor(tcp: TenantControlPlane): FleetCluster | undefined {
  const secretName = tcp.status?.kubeconfig?.admin?.secretName;
  if (!secretName || !tcp.metadata.uid) return undefined;
  const kind = SERVED_KINDS.Cluster;
  return {
    apiVersion: apiVersionOf(kind),
    kind: kind.kind,
    metadata: {
      name: tcp.metadata.name,
      namespace: tcp.metadata.namespace,
      labels: { ...(tcp.metadata.labels ?? {}), [DISCOVERED_LABEL]: "kamaji" },
      ownerReferences: [
        {
          apiVersion: tcp.apiVersion,
          kind: tcp.kind,
          name: tcp.metadata.name,
          uid: tcp.metadata.uid,
          controller: true,
          blockOwnerDeletion: false,
        },
      ],
    },
    spec: { kubeConfig: { secretRef: { name: secretName, key: KAMAJI_KUBECONFIG_KEY } } },
  };
}

export class KamajiDiscoveryReconciler implements Reconciler {
  constructor(private readonly cluster: Cluster) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    let tcp: TenantControlPlane;
    try {
      tcp =
        (ctx.cached as TenantControlPlane | undefined) ??
        (await this.cluster.client.get(pathOf(USED_KINDS.TenantControlPlane, req.namespace, req.name)));
    } catch (err) {
      if (err instanceof NotFoundError) return; // its Cluster goes with it (owner reference)
      throw err;
    }
    if (tcp.metadata.deletionTimestamp) return;
    const desired = clusterFor(tcp);
    if (!desired) {
      ctx.log.info("TenantControlPlane has no admin kubeconfig yet", {});
      return;
    }
    await this.cluster.client.apply(
      pathOf(SERVED_KINDS.Cluster, req.namespace, req.name),
      desired,
      DISCOVERY_FIELD_MANAGER,
      { force: true },
    );
  }
}

/** Kamaji writes what discovery reads into status, and labels are copied: both queue a plane again. */
const statusOrLabelsChanged = (o: KubeObject, n: KubeObject) =>
  JSON.stringify([o.status, o.metadata.labels, o.metadata.generation, o.metadata.deletionTimestamp]) !==
  JSON.stringify([n.status, n.metadata.labels, n.metadata.generation, n.metadata.deletionTimestamp]);

export const kamajiDiscoveryController: ControllerSetup<Pick<ControllerDeps, "cluster">> = {
  name: "kamaji-discovery",
  predicates: [statusOrLabelsChanged],
  kind: { group: USED_KINDS.TenantControlPlane.group, version: "v1alpha1", kind: USED_KINDS.TenantControlPlane.kind },
  reconciler: ({ cluster }) => new KamajiDiscoveryReconciler(cluster),
};
