// The steps after a chart package is pulled, whatever the repository (an HTTP/S index or an OCI
// registry): only a chart is accepted, values files are merged into it and it is re-packaged with
// `+<generation>` build metadata when the HelmChart asks for them (as Flux does), then stored as
// `<chart>-<version>.tgz` beside nothing else.
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Artifact } from "../../api/meta/artifact.js";
import type { HelmChart } from "../../api/source/helm.js";
import { ArtifactError } from "../../sources/artifact/errors.js";
import { extractTarball } from "../../sources/artifact/extract.js";
import type { ArtifactLimits } from "../../sources/artifact/limits.js";
import type { Storage } from "../../sources/artifact/storage.js";
import { inspectChartArchive } from "../../sources/helm/chart-archive.js";
import { chartFileName, chartVersionProblem } from "../../sources/helm/chart-identity.js";
import { packageChart } from "../../sources/helm/package.js";
import { effectiveValuesFiles, mergeValuesFiles, valuesYaml } from "../../sources/helm/values.js";
import { withMetadata } from "../../sources/semver.js";
import { makeWorkDir } from "../../util/work-dir.js";
import { ReconcileFailure } from "../kit/failure.js";
import { buildFailure, type ChartBuild, chartValuesFiles } from "./build.js";

export const MAX_CHART_BYTES = 10 * 1024 * 1024;

/** Unpacks a chart .tgz into `dir`; returns the chart's root (its single top directory). */
async function unpackChart(data: Buffer, dir: string, limits: ArtifactLimits, what: string): Promise<string> {
  try {
    const [first] = await extractTarball(data, dir, { limits, what });
    return join(dir, first?.path.split("/")[0] ?? "");
  } catch (err) {
    if (err instanceof ArtifactError) throw new ReconcileFailure("ChartPullError", `chart untar error: ${err.message}`);
    throw err;
  }
}

/** The version the stored chart gets, and where it goes; `reused` when the previous artifact is it. */
export function plannedChart(
  storage: Storage,
  chart: HelmChart,
  pulledVersion: string,
  previous: Artifact | undefined,
  /** Who listed the version, and what to fix, for the message when it is not a version helm accepts. */
  listed: { where: string; fix: string },
): { version: string; file: string; valuesFiles: string[]; reused: boolean } {
  const ns = chart.metadata.namespace!;
  const valuesFiles = effectiveValuesFiles(chartValuesFiles(chart));
  const generation = chart.metadata.generation ?? 0;
  const version = valuesFiles.length ? withMetadata(pulledVersion, String(generation)) : pulledVersion;
  const versionProblem = chartVersionProblem(version);
  if (versionProblem)
    throw new ReconcileFailure("ChartPullError", `${listed.where} lists ${versionProblem}: ${listed.fix}`);
  const file = storage.artifactPath("HelmChart", ns, chart.metadata.name, chartFileName(chart.spec.chart, version));
  const forced = generation !== chart.status?.observedGeneration;
  return { version, file, valuesFiles, reused: previous?.path === file && !(forced && valuesFiles.length) };
}

/** The previous artifact, when plannedChart found it is already what would be stored. */
export const reusedChart = (
  chart: HelmChart,
  planned: { version: string; valuesFiles: string[] },
  previous: Artifact,
  sourceRevision: string,
): ChartBuild => ({
  name: chart.spec.chart,
  version: planned.version,
  sourceRevision,
  artifact: previous,
  packaged: planned.valuesFiles.length > 0,
  valuesFiles: planned.valuesFiles,
  isNew: false,
});

/** Checks the pulled package is a chart, merges values files into it if asked, stores it. */
export async function storePulledChart(
  storage: Storage,
  limits: ArtifactLimits,
  chart: HelmChart,
  pulled: { data: Buffer; version: string; from: string },
  planned: { version: string; file: string; valuesFiles: string[] },
  sourceRevision: string,
): Promise<ChartBuild> {
  const what = `chart ${chart.spec.chart}-${pulled.version}`;
  // Only a chart is stored and served: whatever else the repository answered is refused.
  await inspectChartArchive(pulled.data, limits, what).catch((err: unknown) => {
    if (err instanceof ArtifactError) throw new ReconcileFailure("ChartPullError", `chart untar error: ${err.message}`);
    throw new ReconcileFailure("ChartPullError", `chart pull error: ${(err as Error).message} (from ${pulled.from})`);
  });
  let data = pulled.data;
  let used: string[] = [];
  if (planned.valuesFiles.length) {
    const work = makeWorkDir("chart-");
    try {
      const root = await unpackChart(data, work, limits, what);
      let merged;
      try {
        merged = mergeValuesFiles(root, planned.valuesFiles, Boolean(chart.spec.ignoreMissingValuesFiles));
      } catch (err) {
        throw buildFailure("values", err);
      }
      used = merged.files;
      data = await packageChart(root, { version: planned.version, valuesYaml: valuesYaml(merged.values) }).catch(
        (err: unknown) => {
          throw buildFailure("pkg", err);
        },
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const artifact = storage.store(planned.file, data, planned.version);
  storage.garbageCollect(storage.objectDir("HelmChart", chart.metadata.namespace!, chart.metadata.name), planned.file);
  const packaged = planned.valuesFiles.length > 0;
  return {
    name: chart.spec.chart,
    version: planned.version,
    sourceRevision,
    artifact,
    packaged,
    valuesFiles: used,
    isNew: true,
  };
}
