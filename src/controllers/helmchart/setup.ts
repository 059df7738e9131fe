// The HelmChart controller as the manager runs it: charts re-queued when their source's artifact
// revision changes (watch.ts), reading those sources from its watch caches.
import { SOURCE_GROUP } from "../../api/kinds.js";
import type { ControllerDeps, ControllerSetup } from "../kit/setup.js";
import { HelmChartReconciler } from "./reconciler.js";
import { CHART_SOURCE_INDEX, chartSourceIndex, chartSourceWatch } from "./watch.js";

export const helmChartController: ControllerSetup<Pick<ControllerDeps, "cluster" | "storage" | "events" | "flags">> = {
  name: "helmchart",
  kind: { group: SOURCE_GROUP, version: "v1", kind: "HelmChart" },
  watches: [chartSourceWatch("GitRepository"), chartSourceWatch("HelmRepository")],
  indexes: { [CHART_SOURCE_INDEX]: chartSourceIndex },
  reconciler: ({ cluster, storage, events, flags }) =>
    new HelmChartReconciler(cluster, storage, events, flags.artifactLimits),
  // The chart's sources are read from this controller's own watch caches (it watches both source kinds).
  connect: (controller) =>
    (controller.options.reconciler as HelmChartReconciler).sources.useCache((kind, name, ns) =>
      controller.cachedWatched(SOURCE_GROUP, kind, name, ns),
    ),
};
