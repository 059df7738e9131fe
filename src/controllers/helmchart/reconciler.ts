// HelmChart reconciler (HelmRepository sources): read the repository's index artifact, choose the
// version as helm does, download the chart with the repository's credentials, verify the index's
// digest, store `<chart>-<version>.tgz`. Revision = the chart version.
import { createHash } from "node:crypto";
import { SOURCE_GROUP } from "../../api/source/git-repository.js";
import type { HelmChart, HelmRepository } from "../../api/source/helm.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import {
  REQUESTED_AT_ANNOTATION,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { Storage } from "../../sources/artifact/storage.js";
import { download, type HelmIndex, normalizeRepoUrl, selectChartVersion } from "../../sources/helm/index.js";
import { parseDuration } from "../../util/duration.js";
import { repositoryAuth } from "../helmrepository/reconciler.js";
import { failed, patchStatus, prepare, succeeded } from "../source-status.js";

const MAX_CHART_BYTES = 10 * 1024 * 1024;

class ChartFailure extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export class HelmChartReconciler implements Reconciler {
  constructor(
    private readonly cluster: Cluster,
    readonly storage: Storage,
    private readonly events: EventRecorder,
  ) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const path = `/apis/${SOURCE_GROUP}/v1/namespaces/${req.namespace}/helmcharts/${req.name}`;
    const dir = this.storage.objectDir("HelmChart", req.namespace, req.name);
    const chart = await prepare<HelmChart>(this.cluster, path, this.storage, dir);
    if (!chart || chart.spec.suspend) return;
    const generation = chart.metadata.generation;
    const base = {
      lastHandledReconcileAt:
        chart.metadata.annotations?.[REQUESTED_AT_ANNOTATION] ?? chart.status?.lastHandledReconcileAt,
    };
    const previous =
      chart.status?.artifact && this.storage.exists(chart.status.artifact) ? chart.status.artifact : undefined;
    try {
      if (chart.spec.sourceRef.kind !== "HelmRepository") {
        throw new ChartFailure(
          "UnsupportedSourceKind",
          `source kind '${chart.spec.sourceRef.kind}' is not supported yet`,
        );
      }
      let repo: HelmRepository;
      try {
        repo = await this.cluster.client.get<HelmRepository>(
          `/apis/${SOURCE_GROUP}/v1/namespaces/${req.namespace}/helmrepositories/${chart.spec.sourceRef.name}`,
        );
      } catch (err) {
        if (err instanceof NotFoundError)
          throw new ChartFailure(
            "SourceUnavailable",
            `failed to get source: HelmRepository '${chart.spec.sourceRef.name}' not found`,
          );
        throw err;
      }
      if (!repo.status?.artifact)
        throw new ChartFailure(
          "NoSourceArtifact",
          `no artifact available for HelmRepository source '${repo.metadata.name}'`,
        );
      const index = JSON.parse(
        (await download(repo.status.artifact.url, undefined, 60_000, 50 * 1024 * 1024)).toString("utf8"),
      ) as HelmIndex;
      let entry;
      try {
        entry = selectChartVersion(index, chart.spec.chart, chart.spec.version ?? "*");
      } catch (err) {
        throw new ChartFailure(
          "ChartPullError",
          `invalid chart reference: failed to get chart version for remote reference: ${(err as Error).message}`,
        );
      }
      const file = `${dir}/${chart.spec.chart}-${entry.version}.tgz`;
      let artifact = previous?.path === file ? previous : undefined;
      if (!artifact) {
        const url = new URL(entry.urls[0]!, normalizeRepoUrl(repo.spec.url)).toString();
        const sameHost = new URL(url).host === new URL(repo.spec.url).host;
        const auth = sameHost || repo.spec.passCredentials ? await repositoryAuth(this.cluster, repo) : undefined;
        const data = await download(
          url,
          auth,
          repo.spec.timeout ? parseDuration(repo.spec.timeout) : 60_000,
          MAX_CHART_BYTES,
        );
        if (entry.digest && createHash("sha256").update(data).digest("hex") !== entry.digest) {
          throw new ChartFailure(
            "ChartPullError",
            `chart ${chart.spec.chart}-${entry.version} digest does not match the repository index`,
          );
        }
        artifact = this.storage.store(file, data, entry.version);
        this.storage.garbageCollect(dir, file);
        await this.events.record(
          chart,
          "Normal",
          "ChartPullSucceeded",
          `pulled '${chart.spec.chart}' chart with version '${entry.version}'`,
        );
      }
      const message = `pulled '${chart.spec.chart}' chart with version '${entry.version}'`;
      await patchStatus(this.cluster, path, {
        ...base,
        artifact,
        observedSourceArtifactRevision: repo.status.artifact.revision,
        observedChartName: chart.spec.chart,
        conditions: succeeded(chart.status?.conditions, generation, "ChartPullSucceeded", message),
        observedGeneration: generation,
      });
      return { requeueAfterMs: parseDuration(chart.spec.interval) };
    } catch (err) {
      const failure = err instanceof ChartFailure ? err : new ChartFailure("ChartPullError", (err as Error).message);
      ctx.log.error(failure.message);
      await patchStatus(this.cluster, path, {
        ...base,
        artifact: previous,
        conditions: failed(chart.status?.conditions, generation, failure.reason, failure.message),
        observedGeneration: generation,
      });
      await this.events.record(chart, "Warning", failure.reason, failure.message);
      throw failure;
    }
  }
}
