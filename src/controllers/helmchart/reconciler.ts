// HelmChart reconciler: build the chart from its source (a HelmRepository's index, or a chart
// directory in a GitRepository's artifact), store it as `<chart>-<version>.tgz` with the version as
// revision, and report Flux's conditions (Ready/ArtifactInStorage, FetchFailed or BuildFailed) and
// events. HelmCharts are re-queued when their source's artifact changes (watch.ts).
import type { HelmChart } from "../../api/source/helm.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ReconcileContext, Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { Storage } from "../../sources/artifact/storage.js";
import { type ArtifactLimits, DEFAULT_ARTIFACT_LIMITS } from "../../sources/artifact/limits.js";
import { SourceFetcher } from "../../sources/consumer.js";
import { parseDuration } from "../../util/duration.js";
import { ReconcileFailure } from "../kit/failure.js";
import { refuseUnsupported } from "../kit/unsupported.js";
import { HELM_CHART_UNSUPPORTED } from "./unsupported-fields.js";
import { SourceReconciler } from "../source-reconciler.js";
import { artifactStored, failedStep, sourceFailure } from "../source-status.js";
import { buildReason, buildSummary, type ChartBuild } from "./build.js";
import { buildFromGitRepository } from "./from-git-repository.js";
import { buildFromHelmRepository } from "./from-helm-repository.js";

export class HelmChartReconciler extends SourceReconciler<HelmChart> {
  protected readonly kind = "HelmChart";
  /** Source objects, read from the controller's informers once the manager hooks them up (useCache). */
  readonly sources: SourceFetcher;

  constructor(
    cluster: Cluster,
    storage: Storage,
    events: EventRecorder,
    /** What a Git artifact or a chart may hold, unpacked (--artifact-max-size, --artifact-max-files). */
    private readonly limits: ArtifactLimits = DEFAULT_ARTIFACT_LIMITS,
  ) {
    super(cluster, storage, events);
    this.sources = new SourceFetcher(cluster.client);
  }

  protected async reconcileLive(chart: HelmChart, path: string, dir: string, ctx: ReconcileContext): Promise<Result> {
    const generation = chart.metadata.generation;
    const conditions = chart.status?.conditions ?? [];
    const timing = { intervalMs: parseDuration(chart.spec.interval) };
    const previous = this.objects.storedArtifact(chart);
    let build: ChartBuild;
    try {
      refuseUnsupported(chart.spec, HELM_CHART_UNSUPPORTED);
      const kind = chart.spec.sourceRef.kind;
      // Only a spec change can help (Flux: Stalled, UnsupportedSourceKind).
      if (kind !== "HelmRepository" && kind !== "GitRepository")
        throw new ReconcileFailure("UnsupportedSourceKind", `source kind '${kind}' is not supported yet`, {
          stalled: true,
        });
      const env = { cluster: this.cluster, storage: this.storage, sources: this.sources, limits: this.limits };
      const builder = kind === "HelmRepository" ? buildFromHelmRepository : buildFromGitRepository;
      build = await builder(env, chart, previous);
    } catch (err) {
      const failure = sourceFailure(err, (m) => new ReconcileFailure("ChartPullError", m));
      const report = {
        conditions: failedStep(conditions, generation, failure),
        status: { artifact: previous },
        timing,
      };
      return this.finisher.finish(chart, path, ctx, { ...report, outcome: failure });
    }
    const [reason, message] = [buildReason(build), buildSummary(build)];
    return this.finisher.finish(chart, path, ctx, {
      outcome: { reason, message, event: build.isNew ? { reason, message } : undefined },
      conditions: artifactStored(conditions, generation, reason, message),
      status: {
        artifact: build.artifact,
        observedSourceArtifactRevision: build.sourceRevision,
        observedChartName: build.name,
        observedValuesFiles: build.valuesFiles.length ? build.valuesFiles : null,
      },
      timing,
    });
  }
}
