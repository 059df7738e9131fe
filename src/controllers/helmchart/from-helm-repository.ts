// A HelmChart from a HelmRepository: read the repository's index artifact, choose the version as helm
// does, download the chart with the repository's credentials, verify the index's digest, store
// `<chart>-<version>.tgz`. With valuesFiles (relative to the chart) the chart is re-packaged with
// the merged values and `+<generation>` build metadata, as Flux does, so consumers see the change.
import { objectTimeout } from "../../util/object-timeout.js";
import { createHash } from "node:crypto";
import type { HelmRepository } from "../../api/source/helm.js";
import { fetchArtifact } from "../../sources/artifact/fetch.js";
import type { Storage } from "../../sources/artifact/storage.js";
import type { Artifact } from "../../api/meta/artifact.js";
import { SourceNotFoundError } from "../../sources/consumer.js";
import { download, type HelmIndex, normalizeRepoUrl, selectChartVersion } from "../../sources/helm/index.js";
import { chartNameProblem } from "../../sources/helm/chart-identity.js";
import { repositoryAuth } from "../../sources/helm/repository-auth.js";
import { ReconcileFailure } from "../kit/failure.js";
import type { ChartBuilder } from "./build.js";
import { buildFromOciHelmRepository } from "./from-oci-helm-repository.js";
import { MAX_CHART_BYTES, plannedChart, reusedChart, storePulledChart } from "./store-pulled-chart.js";
import { repositoryTls } from "../../sources/helm/tls.js";

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
  // A chart name is a name, never a path (it becomes the stored file's name): refused before anything is read.
  const nameProblem = chartNameProblem(chart.spec.chart);
  if (nameProblem)
    throw new ReconcileFailure("InvalidChartReference", `invalid chart reference: ${nameProblem}`, { stalled: true });
  if (repo.spec.type === "oci") return buildFromOciHelmRepository({ cluster, storage, limits }, chart, repo, previous);
  if (!repo.status?.artifact)
    throw new ReconcileFailure(
      "NoSourceArtifact",
      `no artifact available for HelmRepository source '${repo.metadata.name}'`,
    );
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
  const where = `HelmRepository '${ns}/${repo.metadata.name}'`;
  const planned = plannedChart(storage, chart, entry.version, previous, { where, fix: "fix the repository index" });
  const sourceRevision = repo.status.artifact.revision;
  if (planned.reused) return reusedChart(chart, planned, previous!, sourceRevision);

  const url = new URL(entry.urls[0]!, normalizeRepoUrl(repo.spec.url)).toString();
  const sameHost = new URL(url).host === new URL(repo.spec.url).host;
  const auth = sameHost || repo.spec.passCredentials ? await repositoryAuth(cluster, repo) : undefined;
  // TLS settings belong to the repository's host; credentials only with passCredentials elsewhere.
  const tls = sameHost ? await repositoryTls(cluster, repo) : undefined;
  const data = await download(
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
  return storePulledChart(storage, limits, chart, { data, version: entry.version, from: url }, planned, sourceRevision);
};
