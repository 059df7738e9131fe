// A fleet kind's controller as the manager runs it: a child's change re-reads its parent; any Cluster
// change (labels, readiness) re-reads every parent of that kind in the Cluster's namespace; for kinds
// that stage rollouts, a new revision of the template's source re-reads the parents reading it that
// stage or fall back by path, and the approval annotation triggers like a spec change.
import { gvkOf as gvk, SERVED_KINDS } from "../../api/kinds.js";
import type { ControllerDeps, ControllerSetup } from "../../controllers/kit/setup.js";
import { deletionChanged, generationChanged, reconcileRequested } from "../../runtime/controller.js";
import type { ChildKind, FleetParent } from "../children/child-kind.js";
import { approvalChanged, childChanged, clusterChanged, sourceChanged } from "./predicates.js";
import { FanOutReconciler } from "./reconciler.js";

type Watches = ControllerSetup["watches"];

export function fanOutController<P extends FleetParent>(
  name: string,
  kind: ChildKind<P>,
): ControllerSetup<Pick<ControllerDeps, "cluster" | "events"> & Partial<Pick<ControllerDeps, "sources" | "flags">>> {
  const sameNamespace: NonNullable<Watches>[number]["map"] = (o, controller) =>
    controller.informer
      .list()
      .filter((p) => p.metadata.namespace === o.metadata.namespace)
      .map((p) => `${p.metadata.namespace}/${p.metadata.name}`);
  const pins = kind.pins;
  const sourceWatch: NonNullable<Watches> = (pins?.sources ?? []).map((source) => ({
    kind: gvk(source.kind),
    predicate: sourceChanged,
    map: (obj, controller) =>
      source
        .parentsOf(
          obj,
          controller.informer.list().map((p) => p as unknown as P),
        )
        .map((p) => `${p.metadata.namespace}/${p.metadata.name}`),
  }));
  return {
    name,
    kind: gvk(kind.parent),
    predicates: [generationChanged, reconcileRequested, deletionChanged, approvalChanged],
    watches: [
      {
        kind: gvk(kind.child),
        predicate: childChanged,
        onDelete: true,
        map: (child) => {
          const parent = child.metadata.labels?.[kind.parentLabel];
          return parent ? [`${child.metadata.namespace}/${parent}`] : [];
        },
      },
      { kind: gvk(SERVED_KINDS.Cluster), predicate: clusterChanged, onDelete: true, map: sameNamespace },
      ...sourceWatch,
    ],
    reconciler: ({ cluster, events, sources, flags }) =>
      new FanOutReconciler(kind, cluster, events, sources, flags?.clusterRemovalGraceMs, flags?.noCrossNamespaceRefs),
  };
}
