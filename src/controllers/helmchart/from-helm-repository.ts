// A HelmChart from a HelmRepository: read the repository's index artifact, choose the version as helm
// does, download the chart with the repository's credentials, verify the index's digest, store
// `<chart>-<version>.tgz`. With valuesFiles (relative to the chart) the chart is re-packaged with
// the merged values and `+<generation>` build metadata, as Flux does, so consumers see the change.
import { objectTimeout } from "../../util/object-timeout.js";
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { HelmRepository } from "../../api/source/helm.js";
import { ArtifactError } from "../../sources/artifact/errors.js";
import { extractTarball } from "../../sources/artifact/extract.js";
import type { ArtifactLimits } from "../../sources/artifact/limits.js";
import { fetchArtifact } from "../../sources/artifact/fetch.js";
import type { Storage } from "../../sources/artifact/storage.js";
import type { Artifact } from "../../api/meta/artifact.js";
import { SourceNotFoundError } from "../../sources/consumer.js";
import { download, type HelmIndex, normalizeRepoUrl, selectChartVersion } from "../../sources/helm/index.js";
import { packageChart } from "../../sources/helm/package.js";
import { inspectChartArchive } from "../../sources/helm/chart-archive.js";
import { chartFileName, chartNameProblem, chartVersionProblem } from "../../sources/helm/chart-identity.js";
import { effectiveValuesFiles, mergeValuesFiles, valuesYaml } from "../../sources/helm/values.js";
import { repositoryAuth } from "../../sources/helm/repository-auth.js";
import { isOciRepository, OCI_INSTEAD } from "../kit/shared-refusals.js";
import { ReconcileFailure } from "../kit/failure.js";
import { buildFailure, chartValuesFiles, type ChartBuilder } from "./build.js";
import { withMetadata } from "../../sources/semver.js";
import { makeWorkDir } from "../../util/work-dir.js";
import { repositoryTls } from "../../sources/helm/tls.js";

const MAX_CHART_BYTES = 10 * 1024 * 1024;

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

/** The repository's index, from its artifact (digest-checked); a failure is a ChartPullError. */
async function readIndex(storage: Storage, artifact: Artifact): Promise<HelmIndex> {
  const data = await fetchArtifact(artifact, { storage, timeoutMs: 60_000 });
  return JSON.parse(data.toString("utf8")) as HelmIndex;
}

export const buildFromHelmRepository: ChartBuilder = async ({ cluster, storage, sources, limits }, chart, previous) => {
  const ns = chart.metadata.namespace!;
  let repo: HelmRepository;
  try {
    repo = await sources.source<HelmRepository>({ kind: "HelmRepository", name: chart.spec.sourceRef.name }, ns);
  } catch (err) {
    if (err instanceof SourceNotFoundError)
      throw new ReconcileFailure(
        "SourceUnavailable",
        `failed to get source: HelmRepository '${chart.spec.sourceRef.name}' not found`,
      );
    throw err;
  }
  if (isOciRepository(repo))
    throw new ReconcileFailure(
      "UnsupportedSource",
      `HelmRepository '${ns}/${repo.metadata.name}' is an OCI HelmRepository, which flotilla does not support: ${OCI_INSTEAD}`,
    );
  if (!repo.status?.artifact)
    throw new ReconcileFailure(
      "NoSourceArtifact",
      `no artifact available for HelmRepository source '${repo.metadata.name}'`,
    );
  // A chart name is a name, never a path (it becomes the stored file's name): refused before anything is read.
  const nameProblem = chartNameProblem(chart.spec.chart);
  if (nameProblem)
    throw new ReconcileFailure("InvalidChartReference", `invalid chart reference: ${nameProblem}`, { stalled: true });
  const index = await readIndex(storage, repo.status.artifact);
  let entry;
  try {
    entry = selectChartVersion(index, chart.spec.chart, chart.spec.version ?? "*");
  } catch (err) {
    // Flux's wording first (scripts match it), then where flotilla looked and what is there.
    const versions = (index.entries[chart.spec.chart] ?? []).map((e) => e.version);
    const there = versions.length
      ? `it has ${versions.slice(0, 5).join(", ")}${versions.length > 5 ? `, … (${versions.length} versions)` : ""}: ask for one of those, or publish the version`
      : "it has no chart of that name: check spec.chart";
    throw new ReconcileFailure(
      "ChartPullError",
      `invalid chart reference: failed to get chart version for remote reference: ${(err as Error).message} in HelmRepository '${ns}/${repo.metadata.name}' (${repo.spec.url}); ${there}`,
    );
  }
  const valuesFiles = effectiveValuesFiles(chartValuesFiles(chart));
  const generation = chart.metadata.generation ?? 0;
  const version = valuesFiles.length ? withMetadata(entry.version, String(generation)) : entry.version;
  const versionProblem = chartVersionProblem(version);
  if (versionProblem)
    throw new ReconcileFailure(
      "ChartPullError",
      `HelmRepository '${ns}/${repo.metadata.name}' lists ${versionProblem}: fix the repository index`,
    );
  const dir = storage.objectDir("HelmChart", ns, chart.metadata.name);
  const file = storage.artifactPath("HelmChart", ns, chart.metadata.name, chartFileName(chart.spec.chart, version));
  const forced = generation !== chart.status?.observedGeneration;
  const base = { name: chart.spec.chart, version, sourceRevision: repo.status.artifact.revision };
  if (previous?.path === file && !(forced && valuesFiles.length))
    return { ...base, artifact: previous, packaged: valuesFiles.length > 0, valuesFiles, isNew: false };

  const url = new URL(entry.urls[0]!, normalizeRepoUrl(repo.spec.url)).toString();
  const sameHost = new URL(url).host === new URL(repo.spec.url).host;
  const auth = sameHost || repo.spec.passCredentials ? await repositoryAuth(cluster, repo) : undefined;
  // TLS settings belong to the repository's host; credentials only with passCredentials elsewhere.
  const tls = sameHost ? await repositoryTls(cluster, repo) : undefined;
  let data = await download(
    url,
    auth,
    objectTimeout(repo.spec.timeout, "60s").ms, // capped by --max-object-timeout
    MAX_CHART_BYTES,
    tls,
    "chart",
  ).catch((err: unknown) => {
    throw new ReconcileFailure("ChartPullError", `chart pull error: ${(err as Error).message}`);
  });
  if (entry.digest && createHash("sha256").update(data).digest("hex") !== entry.digest)
    throw new ReconcileFailure(
      "ChartPullError",
      `chart ${chart.spec.chart}-${entry.version} digest does not match the repository index`,
    );
  // Only a chart is stored and served: whatever else the index's URL answered is refused.
  await inspectChartArchive(data, limits, `chart ${chart.spec.chart}-${entry.version}`).catch((err: unknown) => {
    if (err instanceof ArtifactError) throw new ReconcileFailure("ChartPullError", `chart untar error: ${err.message}`);
    throw new ReconcileFailure("ChartPullError", `chart pull error: ${(err as Error).message} (from ${url})`);
  });
  let used: string[] = [];
  if (valuesFiles.length) {
    const work = makeWorkDir("chart-");
    try {
      const root = await unpackChart(data, work, limits, `chart ${chart.spec.chart}-${entry.version}`);
      let merged;
      try {
        merged = mergeValuesFiles(root, valuesFiles, Boolean(chart.spec.ignoreMissingValuesFiles));
      } catch (err) {
        throw buildFailure("values", err);
      }
      used = merged.files;
      data = await packageChart(root, { version, valuesYaml: valuesYaml(merged.values) }).catch((err: unknown) => {
        throw buildFailure("pkg", err);
      });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const artifact = storage.store(file, data, version);
  storage.garbageCollect(dir, file);
  return { ...base, artifact, packaged: valuesFiles.length > 0, valuesFiles: used, isNew: true };
};
