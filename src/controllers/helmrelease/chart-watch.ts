// A HelmRelease is reconciled again when its HelmChart (or the OCIRepository its chartRef names) gets a
// new artifact or changes readiness (a chart that failed to build, then built): an informer index from
// the source to its HelmReleases (an OCIRepository's key has its kind in front).
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { Watch } from "../../runtime/controller.js";
import { getCondition } from "../../runtime/conditions.js";
import { READY } from "../../api/meta/conditions.js";
import { chartRefOf } from "./chart-source.js";

export const HELM_CHART_INDEX = "helmChart";

export function helmChartIndex(obj: KubeObject): string[] {
  const hr = obj as HelmRelease;
  if (!hr.spec?.chart && !hr.spec?.chartRef) return [];
  const ref = chartRefOf(hr);
  return [`${hr.spec.chartRef?.kind === "OCIRepository" ? "OCIRepository/" : ""}${ref.namespace}/${ref.name}`];
}

const revisionOf = (o: KubeObject) =>
  (o.status as { artifact?: { revision?: string } } | undefined)?.artifact?.revision;
const readyOf = (o: KubeObject) => {
  const c = getCondition((o.status as { conditions?: never } | undefined)?.conditions, READY);
  return `${c?.status}/${c?.message}`;
};

export const helmChartWatch: Watch = {
  kind: { group: "source.toolkit.fluxcd.io", version: "v1", kind: "HelmChart" },
  predicate: (o, n) => revisionOf(o) !== revisionOf(n) || readyOf(o) !== readyOf(n),
  map: (chart, controller) =>
    controller.informer
      .byIndex(HELM_CHART_INDEX, `${chart.metadata.namespace}/${chart.metadata.name}`)
      .map((k) => `${k.metadata.namespace}/${k.metadata.name}`),
};

export const ociRepositoryWatch: Watch = {
  kind: { group: "source.toolkit.fluxcd.io", version: "v1", kind: "OCIRepository" },
  predicate: helmChartWatch.predicate,
  map: (repo, controller) =>
    controller.informer
      .byIndex(HELM_CHART_INDEX, `OCIRepository/${repo.metadata.namespace}/${repo.metadata.name}`)
      .map((k) => `${k.metadata.namespace}/${k.metadata.name}`),
};
