// Where a HelmRelease's chart comes from: spec.chart is a template for the HelmChart
// `<hr namespace>-<hr name>` in its source's namespace (created or updated here, deleted with the
// HelmRelease by the finalizer, as helm-controller does — no owner reference across namespaces);
// spec.chartRef names an existing HelmChart. Then the chart's artifact, a .tgz, fetched and verified.
import { join } from "node:path";
import { existsSync } from "node:fs";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import type { HelmChart } from "../../api/source/helm.js";
import { SERVED_KINDS, SOURCE_GROUP } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { isTrue } from "../../runtime/conditions.js";
import { READY } from "../../api/meta/conditions.js";
import {
  ArtifactNotReadyError,
  artifactFileName,
  type SourceFetcher,
  SourceNotFoundError,
} from "../../sources/consumer.js";
import { ReconcileFailure } from "../kit/failure.js";
import { loadOciChart } from "./oci-chart.js";
import type { LoadedChart } from "./loaded-chart.js";

export interface ChartRef {
  name: string;
  namespace: string;
}

/** The HelmChart this HelmRelease reads: its own from the template, or the one chartRef names. */
export function chartRefOf(hr: HelmRelease): ChartRef {
  const ns = hr.metadata.namespace!;
  if (hr.spec.chartRef) return { name: hr.spec.chartRef.name, namespace: hr.spec.chartRef.namespace ?? ns };
  const source = hr.spec.chart!.spec.sourceRef;
  return { name: `${ns}-${hr.metadata.name}`, namespace: source.namespace ?? ns };
}

/** --no-cross-namespace-refs: the chart's source (or the HelmChart) must be in the HelmRelease's namespace. */
export function refuseCrossNamespace(hr: HelmRelease, noCrossNamespaceRefs: boolean | undefined): void {
  if (!noCrossNamespaceRefs) return;
  const ns = hr.metadata.namespace!;
  const ref = hr.spec.chartRef ?? hr.spec.chart?.spec.sourceRef;
  if (ref?.namespace && ref.namespace !== ns)
    throw new ReconcileFailure(
      "AccessDenied",
      `can't access '${ref.kind}/${ref.namespace}/${ref.name}', cross-namespace references have been blocked`,
      { stalled: true },
    );
}

/** The HelmChart the template asks for (helm-controller's buildHelmChartFromTemplate). */
export function helmChartFromTemplate(hr: HelmRelease): HelmChart {
  const t = hr.spec.chart!;
  const ref = chartRefOf(hr);
  return {
    apiVersion: `${SOURCE_GROUP}/v1`,
    kind: "HelmChart",
    metadata: {
      name: ref.name,
      namespace: ref.namespace,
      ...(t.metadata?.labels ? { labels: t.metadata.labels } : {}),
      ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
    },
    spec: {
      chart: t.spec.chart,
      version: t.spec.version ?? "*",
      sourceRef: { kind: t.spec.sourceRef.kind, name: t.spec.sourceRef.name },
      interval: t.spec.interval ?? hr.spec.interval,
      reconcileStrategy: t.spec.reconcileStrategy ?? "ChartVersion",
      ...(t.spec.valuesFiles?.length ? { valuesFiles: t.spec.valuesFiles } : {}),
      ...(t.spec.ignoreMissingValuesFiles ? { ignoreMissingValuesFiles: true } : {}),
    },
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

/** Creates or updates the template's HelmChart; writes nothing when it is as wanted. */
export async function ensureHelmChart(cluster: Cluster, sources: SourceFetcher, hr: HelmRelease): Promise<void> {
  if (!hr.spec.chart) return;
  const want = helmChartFromTemplate(hr);
  const { name, namespace } = want.metadata;
  const have = await sources
    .source<HelmChart>({ kind: "HelmChart", name: name!, namespace }, namespace!)
    .catch((err) => (err instanceof SourceNotFoundError ? undefined : Promise.reject(err)));
  const labelsOk = Object.entries(want.metadata.labels ?? {}).every(([k, v]) => have?.metadata.labels?.[k] === v);
  const annotationsOk = Object.entries(want.metadata.annotations ?? {}).every(
    ([k, v]) => have?.metadata.annotations?.[k] === v,
  );
  if (have && labelsOk && annotationsOk && same(pick(have.spec, want.spec), want.spec)) return;
  await cluster.apply(want, "helm-controller", { force: true });
}

const pick = (have: Record<string, unknown>, want: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(want).map((k) => [k, have[k]]));

export async function deleteHelmChart(cluster: Cluster, hr: HelmRelease): Promise<void> {
  if (!hr.spec.chart) return;
  const ref = chartRefOf(hr);
  await cluster.client.delete(pathOf(SERVED_KINDS.HelmChart, ref.namespace, ref.name)).catch(() => undefined);
}

/** The chart artifact once the HelmChart is Ready for its generation: SourceNotReady/ArtifactFailed otherwise. */
export async function loadChart(sources: SourceFetcher, hr: HelmRelease, waitMs: number): Promise<LoadedChart> {
  if (hr.spec.chartRef?.kind === "OCIRepository") return loadOciChart(sources, hr, waitMs);
  const ref = chartRefOf(hr);
  const id = `HelmChart/${ref.namespace}/${ref.name}`;
  const source = { kind: "HelmChart" as const, ...ref };
  let chart: HelmChart;
  try {
    chart = await sources.source<HelmChart>(source, ref.namespace);
  } catch (err) {
    if (err instanceof SourceNotFoundError)
      throw new ReconcileFailure("SourceNotReady", `HelmChart '${ref.namespace}/${ref.name}' is not ready: not found`, {
        retryAfterMs: waitMs,
      });
    throw err;
  }
  const ready = chart.status?.conditions?.find((c) => c.type === READY);
  if (chart.status?.observedGeneration !== chart.metadata.generation || !isTrue(chart.status?.conditions, READY)) {
    // A failed chart (a version that does not exist, a bad repository) says why; the HelmChart's message names it.
    const why = ready?.status === "False" ? `: ${ready.message}` : "";
    throw new ReconcileFailure("SourceNotReady", `HelmChart '${ref.namespace}/${ref.name}' is not ready${why}`, {
      retryAfterMs: waitMs,
    });
  }
  try {
    const fetched = await sources.fetch(source, ref.namespace);
    // Exactly the package the artifact names, never whatever else lies in the directory.
    const file = join(fetched.dir, artifactFileName(fetched.artifact));
    if (!file.endsWith(".tgz") || !existsSync(file)) {
      fetched.release();
      throw new ArtifactNotReadyError(`the artifact of ${id} holds no chart package`);
    }
    return {
      path: file,
      name: chart.status?.observedChartName ?? chart.spec.chart,
      version: fetched.artifact.revision,
      revision: fetched.artifact.revision,
      digest: fetched.artifact.digest,
      release: fetched.release,
    };
  } catch (err) {
    throw new ReconcileFailure("ArtifactFailed", `failed to fetch the artifact of ${id}: ${(err as Error).message}`, {
      retryAfterMs: waitMs,
    });
  }
}
