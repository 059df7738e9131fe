// HelmChart reconciler: build the chart from its source (a HelmRepository's index, or a chart
// directory in a GitRepository's artifact), store it as `<chart>-<version>.tgz` with the version as
// revision, and report Flux's conditions (Ready/ArtifactInStorage, FetchFailed or BuildFailed) and
// events. HelmCharts are re-queued when their source's artifact changes (watch.ts).
import { SERVED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { HelmChart } from "../../api/source/helm.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ReconcileContext, Reconciler, Request, Result } from "../../runtime/controller.js";
import { REQUESTED_AT_ANNOTATION } from "../../api/meta/annotations.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { Storage } from "../../sources/artifact/storage.js";
import { parseDuration } from "../../util/duration.js";
import { SourceObjects } from "../source-objects.js";
import { failed, succeeded } from "../source-status.js";
import { buildReason, buildSummary, ChartFailure } from "./build.js";
import { buildFromGitRepository } from "./from-git-repository.js";
import { buildFromHelmRepository } from "./from-helm-repository.js";

export class HelmChartReconciler implements Reconciler {
  private readonly objects: SourceObjects<HelmChart>;

  constructor(
    private readonly cluster: Cluster,
    readonly storage: Storage,
    private readonly events: EventRecorder,
  ) {
    this.objects = new SourceObjects(cluster, storage);
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const path = pathOf(SERVED_KINDS.HelmChart, req.namespace, req.name);
    const dir = this.storage.objectDir("HelmChart", req.namespace, req.name);
    const chart = await this.objects.prepare(path, dir, ctx.cached);
    if (!chart || chart.spec.suspend) return;
    const generation = chart.metadata.generation;
    const base = {
      lastHandledReconcileAt:
        chart.metadata.annotations?.[REQUESTED_AT_ANNOTATION] ?? chart.status?.lastHandledReconcileAt,
    };
    const previous =
      chart.status?.artifact && this.storage.exists(chart.status.artifact) ? chart.status.artifact : undefined;
    try {
      const kind = chart.spec.sourceRef.kind;
      if (kind !== "HelmRepository" && kind !== "GitRepository")
        throw new ChartFailure("UnsupportedSourceKind", `source kind '${kind}' is not supported yet`);
      const build =
        kind === "HelmRepository"
          ? await buildFromHelmRepository(this.cluster, this.storage, chart, previous)
          : await buildFromGitRepository(this.cluster, this.storage, chart, previous);
      const message = buildSummary(build);
      await this.objects.patchStatus(chart, path, {
        ...base,
        artifact: build.artifact,
        observedSourceArtifactRevision: build.sourceRevision,
        observedChartName: build.name,
        observedValuesFiles: build.valuesFiles.length ? build.valuesFiles : null,
        conditions: succeeded(chart.status?.conditions, generation, buildReason(build), message),
        observedGeneration: generation,
      });
      if (build.isNew) await this.events.record(chart, "Normal", buildReason(build), message);
      return { requeueAfterMs: parseDuration(chart.spec.interval) };
    } catch (err) {
      const failure = err instanceof ChartFailure ? err : new ChartFailure("ChartPullError", (err as Error).message);
      ctx.log.error(failure.message);
      await this.objects.patchStatus(chart, path, {
        ...base,
        artifact: previous,
        conditions: failed(chart.status?.conditions, generation, failure.reason, failure.message, failure.condition),
        observedGeneration: generation,
      });
      await this.events.record(chart, "Warning", failure.reason, failure.message);
      throw failure;
    }
  }
}
