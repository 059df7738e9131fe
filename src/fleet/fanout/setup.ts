// A fleet kind's controller as the manager runs it: a child's change re-reads its parent; any Cluster
// change (labels, readiness) re-reads every parent of that kind in the Cluster's namespace.
import { gvkOf as gvk, SERVED_KINDS } from "../../api/kinds.js";
import type { ControllerDeps, ControllerSetup } from "../../controllers/kit/setup.js";
import type { ChildKind, FleetParent } from "./child-kind.js";
import { FanOutReconciler } from "./reconciler.js";

export function fanOutController<P extends FleetParent>(
  name: string,
  kind: ChildKind<P>,
): ControllerSetup<Pick<ControllerDeps, "cluster" | "events">> {
  return {
    name,
    kind: gvk(kind.parent),
    watches: [
      {
        kind: gvk(kind.child),
        map: (child) => {
          const parent = child.metadata.labels?.[kind.parentLabel];
          return parent ? [`${child.metadata.namespace}/${parent}`] : [];
        },
      },
      {
        kind: gvk(SERVED_KINDS.Cluster),
        map: (c, controller) =>
          controller.informer
            .list()
            .filter((p) => p.metadata.namespace === c.metadata.namespace)
            .map((p) => `${p.metadata.namespace}/${p.metadata.name}`),
      },
    ],
    reconciler: ({ cluster, events }) => new FanOutReconciler(kind, cluster, events),
  };
}
