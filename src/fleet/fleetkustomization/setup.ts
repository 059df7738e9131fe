// The FleetKustomization controller as the manager runs it: a child's status change re-reads its
// parent; any Cluster change (labels, readiness) re-reads every FleetKustomization of its namespace.
import { SERVED_KINDS } from "../../api/kinds.js";
import type { ControllerDeps, ControllerSetup } from "../../controllers/kit/setup.js";
import { PARENT_LABEL } from "./children.js";
import { FleetKustomizationReconciler } from "./reconciler.js";

const gvk = (k: { group: string; kind: string; versions: { name: string; storage: boolean }[] }) => ({
  group: k.group,
  version: k.versions.find((v) => v.storage)!.name,
  kind: k.kind,
});

export const fleetKustomizationController: ControllerSetup<Pick<ControllerDeps, "cluster" | "events">> = {
  name: "fleetkustomization",
  kind: gvk(SERVED_KINDS.FleetKustomization),
  watches: [
    {
      kind: gvk(SERVED_KINDS.Kustomization),
      map: (k) => {
        const parent = k.metadata.labels?.[PARENT_LABEL];
        return parent ? [`${k.metadata.namespace}/${parent}`] : [];
      },
    },
    {
      kind: gvk(SERVED_KINDS.Cluster),
      map: (c, controller) =>
        controller.informer
          .list()
          .filter((fk) => fk.metadata.namespace === c.metadata.namespace)
          .map((fk) => `${fk.metadata.namespace}/${fk.metadata.name}`),
    },
  ],
  reconciler: ({ cluster, events }) => new FleetKustomizationReconciler(cluster, events),
};
