// HelmRelease reconciler (helm-controller v2 semantics): unsupported fields, dependsOn, the chart
// (HelmChart from the template, its artifact), values, then the release on the target cluster —
// decided from Helm's storage without helm, acted on with the real helm (release-run.ts). A reconcile
// where nothing changed spawns no helm process and writes nothing (the kit skips no-op status patches).
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import { SERVED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ReconcileContext, Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { SourceFetcher } from "../../sources/consumer.js";
import { asFailure, ReconcileFailure } from "../kit/failure.js";
import { AppReconciler } from "../kit/app-reconciler.js";
import { type Attempted, attemptOutcome } from "../kit/attempt.js";
import { progressing, type Success } from "../kit/outcome.js";
import { DeferredWrite, PROGRESS_WRITE_DELAY_MS } from "../kit/deferred-write.js";
import { unsupportedField } from "../kit/unsupported.js";
import type { ControllerFlags } from "../kit/setup.js";
import { checkDependsOn, compileReadyExprs } from "../kit/dependencies.js";
import { targetCluster, targetHints } from "../kit/target-cluster.js";
import { changedTarget, uninstallPrevious } from "./release-target.js";
import { ensureHelmChart, chartRefOf, loadChart, refuseCrossNamespace } from "./chart-source.js";
import { finalizeHelmRelease } from "./finalize.js";
import { normalizeSpec } from "./normalize.js";
import { releaseName, releaseNameProblem, targetNamespace } from "./release-name.js";
import { ReleaseRun } from "./release-run.js";
import { pollerExpressions } from "./health-exprs.js";
import { resetRequested } from "./release-state.js";
import { intervalMs, retryIntervalMs } from "./timing.js";
import { HELM_RELEASE_UNSUPPORTED } from "./unsupported-fields.js";
import { composeValues } from "./values/compose.js";

export const helmReleasePath = (ns: string, name: string) => pathOf(SERVED_KINDS.HelmRelease, ns, name);

export class HelmReleaseReconciler extends AppReconciler<HelmRelease> {
  constructor(
    cluster: Cluster,
    sources: SourceFetcher,
    events: EventRecorder,
    private readonly flags: ControllerFlags = {},
  ) {
    super(cluster, sources, events, flags.requeueDependencyMs);
  }

  protected pathOf(namespace: string, name: string): string {
    return helmReleasePath(namespace, name);
  }

  protected finalize(found: HelmRelease, path: string): Promise<Result | void> {
    const hr = { ...found, spec: normalizeSpec(found.spec) };
    return finalizeHelmRelease(hr, {
      cluster: this.cluster,
      events: this.events,
      defaultServiceAccount: this.flags.defaultServiceAccount,
      patchStatus: (status: Record<string, unknown>) => this.objects.patchStatus(found, path, status),
      release: () => this.objects.removeFinalizer(found, path),
      retryMs: 30_000,
    });
  }

  protected async reconcileLive(obj: HelmRelease, path: string, ctx: ReconcileContext): Promise<Result> {
    const hr: HelmRelease = { ...obj, spec: normalizeSpec(obj.spec) };
    const attempted: Attempted = { conditions: [...(obj.status?.conditions ?? [])], status: {} };
    const progress = new DeferredWrite(PROGRESS_WRITE_DELAY_MS);
    const outcome = await attemptOutcome(() => this.attempt(hr, path, attempted, progress, ctx));
    await progress.settle();
    const { status } = attempted;
    return this.finisher.finish(obj, path, ctx, {
      outcome,
      ...attempted,
      timing: {
        intervalMs: intervalMs(hr.spec),
        retryIntervalMs: retryIntervalMs(
          hr.spec,
          (status.lastAttemptedReleaseAction ?? hr.status?.lastAttemptedReleaseAction) as
            "install" | "upgrade" | undefined,
        ),
      },
    });
  }

  /** Everything up to the release run's result; what it got to is in `attempted`, success or not. */
  private async attempt(
    hr: HelmRelease,
    path: string,
    attempted: Attempted,
    progress: DeferredWrite,
    ctx: ReconcileContext,
  ): Promise<Success> {
    const { status } = attempted;
    const refused = unsupportedField(hr, HELM_RELEASE_UNSUPPORTED);
    if (refused) throw refused;
    const badName = releaseNameProblem(hr);
    if (badName) throw new ReconcileFailure("InvalidReleaseName", badName, { stalled: true });
    if (!hr.spec.chart === !hr.spec.chartRef)
      throw new ReconcileFailure("InvalidChartReference", "either spec.chart or spec.chartRef must be set, not both", {
        stalled: true,
      });
    const expressions = pollerExpressions(hr);
    const readyExprs = compileReadyExprs(hr);
    refuseCrossNamespace(hr, this.flags.noCrossNamespaceRefs);
    await checkDependsOn(
      this.cluster,
      hr,
      { noCrossNamespaceRefs: this.flags.noCrossNamespaceRefs, waitMs: this.waitMs, path: helmReleasePath },
      readyExprs,
    );
    await ensureHelmChart(this.cluster, this.sources, hr);
    const ref = chartRefOf(hr);
    if (hr.spec.chartRef?.kind !== "OCIRepository") status.helmChart = `${ref.namespace}/${ref.name}`;
    const chart = await loadChart(this.sources, hr, this.waitMs);
    const values = await composeValues(this.cluster.client, hr).catch((err: Error) => {
      throw asFailure(err, (m) => new ReconcileFailure("ValuesError", m));
    });
    this.resetFailures(hr, status, chart.version, values.digest);
    if (chart.revisionDigest || hr.status?.lastAttemptedRevisionDigest)
      status.lastAttemptedRevisionDigest = chart.revisionDigest ?? null;
    const target = await targetCluster(this.cluster, hr, this.flags.defaultServiceAccount, this.waitMs);
    const want = { release: releaseName(hr), namespace: targetNamespace(hr), chartName: chart.name };
    const previous = changedTarget(hr, want);
    if (previous) {
      await uninstallPrevious(target, hr, previous, want, this.events);
      Object.assign(status, { history: [], failures: 0, installFailures: 0, upgradeFailures: 0 });
    }
    const run = new ReleaseRun(
      {
        hr: { ...hr, status: { ...hr.status, ...status } },
        target,
        release: releaseName(hr),
        namespace: targetNamespace(hr),
        chart,
        values,
        expressions,
        defaultServiceAccount: this.flags.defaultServiceAccount,
        progressing: async (message, conditions) => {
          const c = progressing(conditions, hr.metadata.generation, message);
          attempted.conditions = c;
          // Written only if the action is still running after a moment (kit/deferred-write.ts).
          progress.schedule(
            () => this.objects.patchStatus(hr, path, { conditions: c }),
            (err) => ctx.log.debug("in-progress status not written", { error: (err as Error).message }),
          );
        },
      },
      this.events,
    );
    try {
      const { reason, message } = await run.run();
      return { reason, message };
    } catch (err) {
      throw asFailure(
        err,
        (m) =>
          new ReconcileFailure("ReconciliationFailed", `${m}${targetHints(hr, this.flags.defaultServiceAccount, err)}`),
      );
    } finally {
      // What the run got to, whatever its outcome.
      Object.assign(status, run.status);
      attempted.conditions = run.conditions;
      chart.release();
    }
  }

  /** helm-controller's MustResetFailures: a new generation, chart version or values, or resetAt. */
  private resetFailures(hr: HelmRelease, status: Record<string, unknown>, version: string, digest: string) {
    const s = hr.status ?? {};
    const reset = resetRequested(hr);
    const changed =
      s.lastAttemptedGeneration !== hr.metadata.generation ||
      s.lastAttemptedRevision !== version ||
      s.lastAttemptedConfigDigest !== digest;
    if ((changed || reset) && (s.failures || s.installFailures || s.upgradeFailures))
      Object.assign(status, { failures: 0, installFailures: 0, upgradeFailures: 0 });
    if (reset) status.lastHandledResetAt = reset;
    Object.assign(status, {
      lastAttemptedGeneration: hr.metadata.generation,
      lastAttemptedRevision: version,
      lastAttemptedConfigDigest: digest,
    });
  }
}
