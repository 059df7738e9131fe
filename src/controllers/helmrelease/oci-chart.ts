// A HelmRelease's chart from an OCIRepository (spec.chartRef kind OCIRepository, Flux's modern path
// for charts in a registry): the OCIRepository's artifact holds the chart — the helm layer copied, or
// extracted — and, as helm-controller's mutateChartWithSourceRevision does, the chart's version gets
// the first 12 hex digits of the OCI digest as build metadata (`6.5.0+9f3a1c0b2d4e`), so a tag pushed
// again with other content is a new release revision. A semver tag must equal the chart's version.
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import type { Artifact } from "../../api/meta/artifact.js";
import { READY } from "../../api/meta/conditions.js";
import type { KubeObject } from "../../api/meta/object.js";
import { isTrue } from "../../runtime/conditions.js";
import { type SourceFetcher, SourceNotFoundError } from "../../sources/consumer.js";
import { packageChart, readChartMetadata } from "../../sources/helm/package.js";
import { CONCRETE_CHART_VERSION, tagVersion } from "../../sources/oci/helm-chart.js";
import { withMetadata } from "../../sources/semver.js";
import { makeWorkDir } from "../../util/work-dir.js";
import { ReconcileFailure } from "../kit/failure.js";
import type { LoadedChart } from "./loaded-chart.js";

type OCIRepository = KubeObject & {
  status?: { artifact?: Artifact; conditions?: never[]; observedGeneration?: number };
};

/** `<tag>@sha256:<hex>` or `sha256:<hex>`: the version to install and the digest it tracks (helm-controller's rules). */
export function versionWithDigest(chartVersion: string, revision: string): { version: string; digest: string } {
  const [tag, digest] = revision.includes("@") ? revision.split("@") : [undefined, revision];
  const hex = /^sha256:([a-f0-9]{12,})$/.exec(digest ?? "")?.[1];
  if (!hex) throw new ReconcileFailure("ChartMutateError", `invalid artifact revision ${revision}`);
  const version = tag === undefined ? undefined : tagVersion(tag);
  if (version && CONCRETE_CHART_VERSION.test(version) && version.replace(/^v/, "") !== chartVersion.replace(/^v/, ""))
    throw new ReconcileFailure(
      "ChartMutateError",
      `artifact revision ${tag} does not match chart version ${chartVersion}`,
    );
  return { version: withMetadata(chartVersion, hex.slice(0, 12)), digest: digest! };
}

/** The chart's directory in an unpacked artifact: its root, or the one directory holding Chart.yaml. */
function chartRoot(dir: string): string | undefined {
  if (existsSync(join(dir, "Chart.yaml"))) return dir;
  const dirs = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  return dirs.length === 1 && existsSync(join(dir, dirs[0]!.name, "Chart.yaml")) ? join(dir, dirs[0]!.name) : undefined;
}

export async function loadOciChart(sources: SourceFetcher, hr: HelmRelease, waitMs: number): Promise<LoadedChart> {
  const ref = hr.spec.chartRef!;
  const namespace = ref.namespace ?? hr.metadata.namespace!;
  const id = `OCIRepository '${namespace}/${ref.name}'`;
  const source = { kind: "OCIRepository" as const, name: ref.name, namespace };
  let repo: OCIRepository;
  try {
    repo = await sources.source<OCIRepository>(source, namespace);
  } catch (err) {
    if (err instanceof SourceNotFoundError)
      throw new ReconcileFailure("SourceNotReady", `${id} is not ready: not found`, { retryAfterMs: waitMs });
    throw err;
  }
  const ready = (repo.status?.conditions as { type: string; status: string; message?: string }[] | undefined)?.find(
    (c) => c.type === READY,
  );
  if (!repo.status?.artifact)
    throw new ReconcileFailure("SourceNotReady", `${id} is not ready: does not have an artifact`, {
      retryAfterMs: waitMs,
    });
  if (repo.status.observedGeneration !== repo.metadata.generation || !isTrue(repo.status.conditions, READY))
    throw new ReconcileFailure(
      "SourceNotReady",
      `${id} is not ready${ready?.status === "False" ? `: ${ready.message}` : ""}`,
      { retryAfterMs: waitMs },
    );
  const fetched = await sources.fetch(source, namespace).catch((err: unknown) => {
    throw new ReconcileFailure("ArtifactFailed", `Could not load chart: ${(err as Error).message}`, {
      retryAfterMs: waitMs,
    });
  });
  const work = makeWorkDir("oci-chart-");
  const release = () => {
    rmSync(work, { recursive: true, force: true });
    fetched.release();
  };
  try {
    const root = chartRoot(fetched.dir);
    if (!root)
      throw new ReconcileFailure(
        "ArtifactFailed",
        `Could not load chart: the artifact of ${id} holds no Helm chart (no Chart.yaml at its root or in its one ` +
          "directory): select the chart layer with spec.layerSelector (mediaType " +
          "'application/vnd.cncf.helm.chart.content.v1.tar+gzip', operation 'copy')",
      );
    let meta;
    try {
      meta = readChartMetadata(root);
    } catch (err) {
      throw new ReconcileFailure("ArtifactFailed", `Could not load chart: ${(err as Error).message}`);
    }
    const { version, digest } = versionWithDigest(meta.version, fetched.artifact.revision);
    // The shared unpacked copy stays read-only: the chart with its tracked version is packaged aside.
    const path = join(work, `${meta.name}-${version}.tgz`);
    writeFileSync(path, await packageChart(root, { version }));
    return {
      path,
      name: meta.name,
      version,
      revision: fetched.artifact.revision,
      digest: fetched.artifact.digest,
      revisionDigest: digest,
      release,
    };
  } catch (err) {
    release();
    throw err;
  }
}
