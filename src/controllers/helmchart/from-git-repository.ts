// A HelmChart from a GitRepository: the chart directory at spec.chart inside the Git artifact,
// packaged by the real helm. Version = Chart.yaml's, plus build metadata as Flux adds it: the
// commit's first 12 hex digits with reconcileStrategy Revision, and the object's generation when
// valuesFiles (relative to the artifact's root) are merged into values.yaml. An artifact with the
// same name and version is kept unless the spec changed (Flux's cached build).
import { chartFileName } from "../../sources/helm/chart-identity.js";
import { realpathSync, rmSync, statSync } from "node:fs";
import { confinedRealpath } from "../../util/confined-path.js";
import { join, normalize, sep } from "node:path";
import type { GitRepository } from "../../api/source/git-repository.js";
import { ArtifactError, ArtifactLimitError, UnsafeArchiveError } from "../../sources/artifact/errors.js";
import type { ArtifactLimits } from "../../sources/artifact/limits.js";
import { extractTarball } from "../../sources/artifact/extract.js";
import { fetchArtifact } from "../../sources/artifact/fetch.js";
import type { Storage } from "../../sources/artifact/storage.js";
import type { Artifact } from "../../api/meta/artifact.js";
import { SourceNotFoundError } from "../../sources/consumer.js";
import { ChartDependencyError } from "../../sources/helm/dependencies.js";
import { packageChart, readChartMetadata } from "../../sources/helm/package.js";
import { dependencyCredentials } from "./dependency-credentials.js";
import { effectiveValuesFiles, mergeValuesFiles, valuesYaml } from "../../sources/helm/values.js";
import { ReconcileFailure } from "../kit/failure.js";
import { buildFailure, chartValuesFiles, type ChartBuilder } from "./build.js";
import { withMetadata } from "../../sources/semver.js";
import { makeWorkDir } from "../../util/work-dir.js";

/** The Git artifact unpacked into `root` (a private copy: the chart is packaged in place). */
async function unpackSource(storage: Storage, source: Artifact, root: string, limits: ArtifactLimits, what: string) {
  try {
    await extractTarball(await fetchArtifact(source, { storage }), root, { limits, what });
  } catch (err) {
    if (err instanceof UnsafeArchiveError || err instanceof ArtifactLimitError)
      throw new ReconcileFailure("Failed", `artifact untar error: ${err.message}`);
    if (err instanceof ArtifactError) throw new ReconcileFailure("ReadOperationFailed", err.message);
    throw err;
  }
}

export const buildFromGitRepository: ChartBuilder = async ({ cluster, storage, sources, limits }, chart, previous) => {
  const ns = chart.metadata.namespace!;
  const name = chart.spec.sourceRef.name;
  let repo: GitRepository;
  try {
    repo = await sources.source<GitRepository>({ kind: "GitRepository", name }, ns);
  } catch (err) {
    if (err instanceof SourceNotFoundError)
      throw new ReconcileFailure("SourceUnavailable", `failed to get source: GitRepository '${name}' not found`);
    throw err;
  }
  const source = repo.status?.artifact;
  if (!source)
    throw new ReconcileFailure("NoSourceArtifact", `no artifact available for GitRepository source '${name}'`);
  const work = makeWorkDir("chart-");
  try {
    const root = join(work, "source");
    await unpackSource(storage, source, root, limits, `the artifact of GitRepository ${ns}/${name}`);
    const chartDir = normalize(join(root, chart.spec.chart));
    let meta;
    try {
      if (!chartDir.startsWith(root + sep) || !statSync(chartDir, { throwIfNoEntry: false })?.isDirectory())
        throw new Error(`path '${chart.spec.chart}' does not exist in the source`);
      // Links resolved: a chart path that is a link leading out of the artifact is refused, as helm's secure loader does.
      const realRoot = realpathSync.native(root);
      if ("outside" in confinedRealpath(join(realRoot, chartDir.slice(root.length)), realRoot))
        throw new Error(
          `path '${chart.spec.chart}' leads outside the source artifact; keep the chart in the repository`,
        );
      meta = readChartMetadata(chartDir);
    } catch (err) {
      throw buildFailure("reference", err);
    }
    const valuesFiles = effectiveValuesFiles(chartValuesFiles(chart));
    const generation = chart.metadata.generation ?? 0;
    const parts = [
      ...(chart.spec.reconcileStrategy === "Revision" ? [source.revision.replace(/^.*:/, "").slice(0, 12)] : []),
      ...(valuesFiles.length ? [String(generation)] : []),
    ];
    let version = meta.version;
    try {
      if (parts.length) version = withMetadata(meta.version, parts.join("."));
    } catch (err) {
      throw buildFailure("metadata", err);
    }
    const dir = storage.objectDir("HelmChart", ns, chart.metadata.name);
    const file = storage.artifactPath("HelmChart", ns, chart.metadata.name, chartFileName(meta.name, version));
    const base = { name: meta.name, version, sourceRevision: source.revision, packaged: true };
    if (previous?.path === file && generation === chart.status?.observedGeneration)
      return { ...base, artifact: previous, valuesFiles: chart.status?.observedValuesFiles ?? [], isNew: false };

    let merged;
    try {
      merged = valuesFiles.length
        ? mergeValuesFiles(root, valuesFiles, Boolean(chart.spec.ignoreMissingValuesFiles))
        : undefined;
    } catch (err) {
      throw buildFailure("values", err);
    }
    let credentials;
    try {
      credentials = await dependencyCredentials(cluster, ns, chartDir);
    } catch (err) {
      throw buildFailure("dependencies", err);
    }
    // The unpacked artifact is ours: package in place so file:// dependencies find their siblings.
    const data = await packageChart(chartDir, {
      version: version === meta.version ? undefined : version,
      valuesYaml: merged && valuesYaml(merged.values),
      dependencies: { sourceRoot: root, credentials },
    }).catch((err: unknown) => {
      throw buildFailure(err instanceof ChartDependencyError ? "dependencies" : "pkg", err);
    });
    const artifact = storage.store(file, data, version);
    storage.garbageCollect(dir, file);
    return { ...base, artifact, valuesFiles: merged?.files ?? [], isNew: true };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};
