// HelmCharts follow their source: when a GitRepository's or HelmRepository's artifact revision
// changes, the charts built from it whose observedSourceArtifactRevision differs are re-queued at once
// instead of at their next interval (Flux: requestsForGitRepositoryChange and friends).
import { SOURCE_GROUP } from "../../api/kinds.js";
import type { HelmChart } from "../../api/source/helm.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { Watch } from "../../runtime/controller.js";

export const CHART_SOURCE_INDEX = "chartSource";
export const chartSourceIndex = (o: KubeObject): string[] => {
  const ref = (o as HelmChart).spec?.sourceRef;
  return ref ? [`${ref.kind}/${o.metadata.namespace}/${ref.name}`] : [];
};

const revisionOf = (o: KubeObject) =>
  (o.status as { artifact?: { revision?: string } } | undefined)?.artifact?.revision;

export const chartSourceWatch = (kind: "GitRepository" | "HelmRepository"): Watch => ({
  kind: { group: SOURCE_GROUP, version: "v1", kind },
  predicate: (o, n) => revisionOf(o) !== revisionOf(n),
  map: (source, controller) => {
    const revision = revisionOf(source);
    if (!revision) return [];
    return controller.informer
      .byIndex(CHART_SOURCE_INDEX, `${kind}/${source.metadata.namespace}/${source.metadata.name}`)
      .filter((c) => (c as HelmChart).status?.observedSourceArtifactRevision !== revision)
      .map((c) => `${c.metadata.namespace}/${c.metadata.name}`);
  },
});
