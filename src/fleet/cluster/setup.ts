// The Cluster controller as the manager runs it. With Kamaji discovery on, a change of a
// TenantControlPlane (its readiness, its kubeconfig) probes its Cluster again at once; so does a rewrite
// of its kubeconfig Secret (a rotated certificate, a moved plane).
import { gvkOf as gvk, SERVED_KINDS, USED_KINDS } from "../../api/kinds.js";
import { kubeconfigSecretWiring } from "../../controllers/kit/kubeconfig-secret-watch.js";
import type { ControllerDeps, ControllerSetup } from "../../controllers/kit/setup.js";
import type { KubeObject } from "../../api/meta/object.js";
import { ClusterReconciler } from "./reconciler.js";

export function clusterController(
  watchTenantControlPlanes: boolean,
): ControllerSetup<Pick<ControllerDeps, "cluster" | "events">> {
  return {
    name: "cluster",
    kind: gvk(SERVED_KINDS.Cluster),
    watches: [
      ...(watchTenantControlPlanes
        ? [
            {
              kind: gvk(USED_KINDS.TenantControlPlane),
              map: (tcp: KubeObject) => [`${tcp.metadata.namespace}/${tcp.metadata.name}`],
            },
          ]
        : []),
      kubeconfigSecretWiring.watch,
    ],
    indexes: kubeconfigSecretWiring.index,
    reconciler: ({ cluster, events }) => new ClusterReconciler(cluster, events),
  };
}
