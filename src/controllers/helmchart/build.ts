// What a HelmChart build produces, whatever the source, and how Flux words it: the chart's name and
// (possibly rewritten) version, the stored artifact, whether it was packaged here or pulled as is,
// and the values files merged into it. Failures carry Flux's reason and the condition they set.
import { FlotillaError } from "../../util/errors.js";
import type { Artifact } from "../../api/meta/artifact.js";

export class ChartFailure extends FlotillaError {
  override name = "ChartFailure";
  constructor(
    readonly reason: string,
    message: string,
    /** FetchFailed for source problems, BuildFailed for the chart itself. */
    readonly condition: "FetchFailed" | "BuildFailed" = "FetchFailed",
  ) {
    super(message);
  }
}

/** Flux's build error kinds: the reason, and the summary that prefixes the message. */
export const BUILD_ERRORS = {
  reference: ["InvalidChartReference", "invalid chart reference"],
  metadata: ["MetadataPatchError", "chart metadata patch error"],
  values: ["ValuesFilesError", "values files merge error"],
  pkg: ["ChartPackageError", "chart package error"],
  dependencies: ["DependencyBuildError", "dependency build error"],
} as const;

export const buildFailure = (kind: keyof typeof BUILD_ERRORS, err: unknown) =>
  new ChartFailure(BUILD_ERRORS[kind][0], `${BUILD_ERRORS[kind][1]}: ${(err as Error).message}`, "BuildFailed");

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

/** Replaces the version's build metadata (Masterminds' SetMetadata): 1.2.3+old → 1.2.3+<meta>. */
export function withMetadata(version: string, metadata: string): string {
  if (!/^[0-9A-Za-z.-]+$/.test(metadata)) throw new Error(`invalid build metadata '${metadata}'`);
  return `${version.replace(/\+.*$/, "")}+${metadata}`;
}
