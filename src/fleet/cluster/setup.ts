// The Cluster controller as the manager runs it. With Kamaji discovery on, a change of a
// TenantControlPlane (its readiness, its kubeconfig) probes its Cluster again at once.
import { gvkOf as gvk, SERVED_KINDS, USED_KINDS } from "../../api/kinds.js";
import type { ControllerDeps, ControllerSetup } from "../../controllers/kit/setup.js";
import { ClusterReconciler } from "./reconciler.js";

export function clusterController(
  watchTenantControlPlanes: boolean,
): ControllerSetup<Pick<ControllerDeps, "cluster" | "events">> {
  return {
    name: "cluster",
    kind: gvk(SERVED_KINDS.Cluster),
    watches: watchTenantControlPlanes
      ? [{ kind: gvk(USED_KINDS.TenantControlPlane), map: (tcp) => [`${tcp.metadata.namespace}/${tcp.metadata.name}`] }]
      : [],
    reconciler: ({ cluster, events }) => new ClusterReconciler(cluster, events),
  };
}
