// What a HelmChart build produces, whatever the source, and how Flux words it: the chart's name and
// (possibly rewritten) version, the stored artifact, whether it was packaged here or pulled as is,
// and the values files merged into it. Failures carry Flux's reason and the condition they set:
// FetchFailed for source problems (the default), BuildFailed for the chart itself.
import type { Artifact } from "../../api/meta/artifact.js";
import type { HelmChart } from "../../api/source/helm.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ArtifactLimits } from "../../sources/artifact/limits.js";
import type { Storage } from "../../sources/artifact/storage.js";
import type { SourceFetcher } from "../../sources/consumer.js";
import { ReconcileFailure } from "../kit/failure.js";

/** Flux's build error kinds: the reason, and the summary that prefixes the message. */
export const BUILD_ERRORS = {
  reference: ["InvalidChartReference", "invalid chart reference"],
  metadata: ["MetadataPatchError", "chart metadata patch error"],
  values: ["ValuesFilesError", "values files merge error"],
  pkg: ["ChartPackageError", "chart package error"],
  dependencies: ["DependencyBuildError", "dependency build error"],
} as const;

export const buildFailure = (kind: keyof typeof BUILD_ERRORS, err: unknown) =>
  new ReconcileFailure(BUILD_ERRORS[kind][0], `${BUILD_ERRORS[kind][1]}: ${(err as Error).message}`, {
    condition: "BuildFailed",
  });

/** The values files to merge: v1beta2's valuesFile first, then valuesFiles, as Flux merged them. */
export const chartValuesFiles = (chart: HelmChart): string[] => [
  ...(chart.spec.valuesFile ? [chart.spec.valuesFile] : []),
  ...(chart.spec.valuesFiles ?? []),
];

/** What every chart builder (one per source kind) works with, besides the chart and its last artifact. */
export interface ChartBuildEnv {
  cluster: Cluster;
  storage: Storage;
  sources: SourceFetcher;
  limits: ArtifactLimits;
}

/** One builder per source kind (from-helm-repository.ts, from-git-repository.ts). */
export type ChartBuilder = (
  env: ChartBuildEnv,
  chart: HelmChart,
  previous: Artifact | undefined,
) => Promise<ChartBuild>;

export interface ChartBuild {
  name: string;
  version: string;
  artifact: Artifact;
  /** Packaged by us (from a directory, or re-packaged with values/metadata) rather than pulled as is. */
  packaged: boolean;
  valuesFiles: string[];
  sourceRevision: string;
  /** A new artifact was stored in this reconcile (an event is due). */
  isNew: boolean;
}

export const buildReason = (b: ChartBuild) => (b.packaged ? "ChartPackageSucceeded" : "ChartPullSucceeded");

export function buildSummary(b: ChartBuild): string {
  const values = b.valuesFiles.length ? ` and merged values files [${b.valuesFiles.join(" ")}]` : "";
  return `${b.packaged ? "packaged" : "pulled"} '${b.name}' chart with version '${b.version}'${values}`;
}
