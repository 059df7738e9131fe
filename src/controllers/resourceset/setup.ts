// The ResourceSet controller as the manager runs it: a change of a ResourceSetInputProvider queues the
// ResourceSets of its namespace that read providers (inputsFrom), so new inputs are generated at once; a
// fleet Cluster added, removed, relabelled or changed queues those of its namespace that target Clusters
// (decision 0048) — not its every probe.
import { gvkOf, SERVED_KINDS } from "../../api/kinds.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { ResourceSet } from "../../api/operator/resourceset.js";
import { TARGET_CLUSTERS_ANNOTATION } from "./cluster-targets.js";
import type { ControllerDeps, ControllerSetup } from "../kit/setup.js";
import { InputProviderReconciler } from "./provider-reconciler.js";
import { ResourceSetReconciler } from "./reconciler.js";

/** What a ResourceSet reads of a Cluster: its labels and spec (kubeconfig, variables). */
const clusterShape = (c: KubeObject) => JSON.stringify([c.metadata.labels ?? {}, c.metadata.generation]);

export const resourceSetController: ControllerSetup<Pick<ControllerDeps, "cluster" | "events" | "flags">> = {
  name: "resourceset",
  kind: gvkOf(SERVED_KINDS.ResourceSet),
  watches: [
    {
      kind: gvkOf(SERVED_KINDS.ResourceSetInputProvider),
      map: (provider, controller) =>
        controller.informer
          .list()
          .filter(
            (r) => r.metadata.namespace === provider.metadata.namespace && (r as ResourceSet).spec?.inputsFrom?.length,
          )
          .map((r) => `${r.metadata.namespace}/${r.metadata.name}`),
    },
    {
      kind: gvkOf(SERVED_KINDS.Cluster),
      onDelete: true,
      predicate: (o, n) => clusterShape(o) !== clusterShape(n),
      map: (cluster, controller) =>
        controller.informer
          .list()
          .filter(
            (r) =>
              r.metadata.namespace === cluster.metadata.namespace &&
              r.metadata.annotations?.[TARGET_CLUSTERS_ANNOTATION] !== undefined,
          )
          .map((r) => `${r.metadata.namespace}/${r.metadata.name}`),
    },
  ],
  reconciler: ({ cluster, events, flags }) =>
    new ResourceSetReconciler(cluster, events, {
      defaultServiceAccount: flags.defaultServiceAccount,
      requeueDependencyMs: flags.requeueDependencyMs,
      clusterRemovalGraceMs: flags.clusterRemovalGraceMs,
    }),
};

/** The ResourceSetInputProvider controller: computes what each provider exports into its status. */
export const inputProviderController: ControllerSetup<Pick<ControllerDeps, "cluster" | "events">> = {
  name: "resourcesetinputprovider",
  kind: gvkOf(SERVED_KINDS.ResourceSetInputProvider),
  reconciler: ({ cluster, events }) => new InputProviderReconciler(cluster, events),
};
