// The Kustomization controller as the manager runs it: re-queued when its source's artifact revision
// changes (source-watch.ts) and, with the DriftWatch gate, when an object it applied is edited or
// deleted by someone else (drift-watch.ts), and when its kubeconfig Secret is rewritten
// (kit/kubeconfig-secret-watch.ts); reading sources from the informer that watches them, as
// controller-runtime's cached client does.
import { KUSTOMIZE_GROUP } from "../../api/kinds.js";
import { SOURCE_GROUP } from "../../api/kinds.js";
import type { ControllerDeps, ControllerSetup } from "../kit/setup.js";
import { kubeconfigSecretWiring } from "../kit/kubeconfig-secret-watch.js";
import { watchKustomizationDrift } from "./drift-watch.js";
import { KustomizationReconciler } from "./reconciler.js";
import { SOURCE_INDEX, sourceIndex, sourceWatch } from "./source-watch.js";

export const kustomizationController: ControllerSetup<
  Pick<ControllerDeps, "cluster" | "sources" | "events" | "flags">
> = {
  name: "kustomization",
  kind: { group: KUSTOMIZE_GROUP, version: "v1", kind: "Kustomization" },
  watches: [sourceWatch("GitRepository"), sourceWatch("OCIRepository"), kubeconfigSecretWiring.watch],
  indexes: { [SOURCE_INDEX]: sourceIndex, ...kubeconfigSecretWiring.index },
  reconciler: ({ cluster, sources, events, flags }) => new KustomizationReconciler(cluster, sources, events, flags),
  connect: (controller, { cluster, sources, flags }) => {
    sources.useCache((kind, name, ns) => controller.cachedWatched(SOURCE_GROUP, kind, name, ns));
    if (flags.driftWatch) watchKustomizationDrift(controller, cluster);
  },
};
