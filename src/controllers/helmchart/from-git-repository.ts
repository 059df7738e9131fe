// A HelmChart from a GitRepository: the chart directory at spec.chart inside the Git artifact,
// packaged by the real helm. Version = Chart.yaml's, plus build metadata as Flux adds it: the
// commit's first 12 hex digits with reconcileStrategy Revision, and the object's generation when
// valuesFiles (relative to the artifact's root) are merged into values.yaml. An artifact with the
// same name and version is kept unless the spec changed (Flux's cached build).
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import type { GitRepository } from "../../api/source/git-repository.js";
import { SERVED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { HelmChart } from "../../api/source/helm.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import { digestOf, type Storage } from "../../sources/artifact/storage.js";
import type { Artifact } from "../../api/meta/artifact.js";
import { readTarball } from "../../sources/artifact/tarball.js";
import { ChartDependencyError } from "../../sources/helm/dependencies.js";
import { packageChart, readChartMetadata } from "../../sources/helm/package.js";
import { dependencyCredentials } from "./dependency-credentials.js";
import { effectiveValuesFiles, mergeValuesFiles, valuesYaml } from "../../sources/helm/values.js";
import { buildFailure, type ChartBuild, ChartFailure, withMetadata } from "./build.js";
import { makeWorkDir } from "../../util/work-dir.js";

async function sourceBytes(storage: Storage, artifact: Artifact): Promise<Buffer> {
  const local = storage.read(artifact);
  if (local) return local;
  const res = await fetch(artifact.url); // another replica's storage
  if (!res.ok) throw new ChartFailure("ReadOperationFailed", `failed to download artifact: HTTP ${res.status}`);
  const data = Buffer.from(await res.arrayBuffer());
  if (digestOf(data) !== artifact.digest)
    throw new ChartFailure("ReadOperationFailed", `artifact ${artifact.path} does not match its digest`);
  return data;
}

function unpack(data: Buffer, dir: string): void {
  for (const e of readTarball(data)) {
    const target = normalize(join(dir, e.path));
    if (!target.startsWith(dir + sep)) throw new ChartFailure("Failed", `artifact untar error: ${e.path} escapes`);
    if (e.type === "directory") mkdirSync(target, { recursive: true });
    else {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, e.content, { mode: e.mode & 0o755 });
    }
  }
}

export async function buildFromGitRepository(
  cluster: Cluster,
  storage: Storage,
  chart: HelmChart,
  previous: Artifact | undefined,
): Promise<ChartBuild> {
  const ns = chart.metadata.namespace!;
  const name = chart.spec.sourceRef.name;
  let repo: GitRepository;
  try {
    repo = await cluster.client.get<GitRepository>(pathOf(SERVED_KINDS.GitRepository, ns, name));
  } catch (err) {
    if (err instanceof NotFoundError)
      throw new ChartFailure("SourceUnavailable", `failed to get source: GitRepository '${name}' not found`);
    throw err;
  }
  const source = repo.status?.artifact;
  if (!source) throw new ChartFailure("NoSourceArtifact", `no artifact available for GitRepository source '${name}'`);
  const work = makeWorkDir("chart-");
  try {
    const root = join(work, "source");
    mkdirSync(root);
    unpack(await sourceBytes(storage, source), root);
    const chartDir = normalize(join(root, chart.spec.chart));
    let meta;
    try {
      if (!chartDir.startsWith(root + sep) || !statSync(chartDir, { throwIfNoEntry: false })?.isDirectory())
        throw new Error(`path '${chart.spec.chart}' does not exist in the source`);
      meta = readChartMetadata(chartDir);
    } catch (err) {
      throw buildFailure("reference", err);
    }
    const valuesFiles = effectiveValuesFiles(chart.spec.valuesFiles);
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
    const file = `${dir}/${meta.name}-${version}.tgz`;
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
}
