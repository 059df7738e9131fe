// The HelmRelease controller as the manager runs it: re-queued when its HelmChart's (or OCIRepository's)
// artifact changes
// and, with the DriftWatch gate, when an object it rendered is edited or deleted by someone else
// (drift-watch.ts), and when its kubeconfig Secret is rewritten (kit/kubeconfig-secret-watch.ts); reading HelmCharts from the informer that watches them.
import { SOURCE_GROUP } from "../../api/kinds.js";
import type { ControllerDeps, ControllerSetup } from "../kit/setup.js";
import { kubeconfigSecretWiring } from "../kit/kubeconfig-secret-watch.js";
import { watchHelmReleaseDrift } from "./drift-watch.js";
import { HelmReleaseReconciler } from "./reconciler.js";
import { HELM_CHART_INDEX, helmChartIndex, helmChartWatch, ociRepositoryWatch } from "./chart-watch.js";

export const helmReleaseController: ControllerSetup<Pick<ControllerDeps, "cluster" | "sources" | "events" | "flags">> =
  {
    name: "helmrelease",
    kind: { group: "helm.toolkit.fluxcd.io", version: "v2", kind: "HelmRelease" },
    watches: [helmChartWatch, ociRepositoryWatch, kubeconfigSecretWiring.watch],
    indexes: { [HELM_CHART_INDEX]: helmChartIndex, ...kubeconfigSecretWiring.index },
    reconciler: ({ cluster, sources, events, flags }) => new HelmReleaseReconciler(cluster, sources, events, flags),
    connect: (controller, { cluster, sources, flags }) => {
      sources.useCache((kind, name, ns) => controller.cachedWatched(SOURCE_GROUP, kind, name, ns));
      if (flags.driftWatch) watchHelmReleaseDrift(controller, cluster);
    },
  };
