// The ResourceSet reconciler (the operator's internal/controller/resourceset_controller.go, decision
// 0040): finalizer fluxcd.controlplane.io/finalizer; reconcile: disabled leaves the object alone; then
// dependsOn, inputs (inline and Static providers, Flatten or Permute), the build, commonMetadata and the
// owner labels resourceset.fluxcd.controlplane.io/{name,namespace}, a server-side apply as field manager
// flux-operator under spec.serviceAccountName, garbage collection of what the inventory no longer has,
// spec.wait, and the status (inventory, lastAppliedRevision, history, Ready) as the operator writes it.
// spec.steps (decision 0052) are applied in order, each health-checked before the next (apply-steps.ts).
// What is generated and where (render.ts, shared with `flotilla plan`) and how it is applied to its own
// cluster or to the fleet Clusters it targets (apply-targets.ts, decision 0048; staged, staging.ts, 0053) live beside it.
import { SERVED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import { type ClusterInventory, OPERATOR_FINALIZER, type ResourceSet } from "../../api/operator/resourceset.js";
import type { RolloutStatus } from "../../api/fleet/rollout.js";
import type { Condition } from "../../api/meta/conditions.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ReconcileContext, Request, Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import { formatChangeSet, waitForSet } from "../../ssa/index.js";
import { asFailure, ReconcileFailure } from "../kit/failure.js";
import { ObjectReconciler } from "../kit/object-reconciler.js";
import { ReconciledObjects } from "../kit/objects.js";
import { type Outcome, progressing } from "../kit/outcome.js";
import { refuseUnsupported } from "../kit/unsupported.js";
import { type ApplyContext, applyTargets, changeMessage, pruneAllTargets } from "./apply-targets.js";
import { clusterSelectorOf } from "./cluster-targets.js";
import { checkDependencies } from "./dependencies.js";
import { renderResourceSet } from "./render.js";
import { goDuration, isDisabled } from "../kit/operator-annotations.js";
import { intervalOf, recordHistory, setDigest } from "./status.js";
import type { StepProgress } from "./apply-steps.js";
import { RESOURCESET_UNSUPPORTED } from "./unsupported.js";
import { APPROVE_ANNOTATION, removalOf, rolloutOf } from "./fleet-annotations.js";
import { removalCondition } from "./leaving-clusters.js";
import { rolloutSummary, stageTargets } from "./staging.js";

export { ownerOf, RESOURCESET_FIELD_MANAGER } from "./apply-targets.js";
const path = (ns: string, name: string) => pathOf(SERVED_KINDS.ResourceSet, ns, name);

export interface ResourceSetOptions {
  defaultServiceAccount?: string;
  requeueDependencyMs?: number;
  /** --cluster-removal-grace-period, as for the fleet kinds (decision 0031). */
  clusterRemovalGraceMs?: number;
}

interface Attempt {
  outcome: Outcome;
  status: Record<string, unknown>;
  conditions?: Condition[];
  /** Look again sooner than the interval: a bake or a grace period ends, or the next stage may move. */
  recheckMs?: number;
}

export class ResourceSetReconciler extends ObjectReconciler<ResourceSet> {
  constructor(
    private readonly cluster: Cluster,
    private readonly events: EventRecorder,
    private readonly options: ResourceSetOptions = {},
  ) {
    super(new ReconciledObjects(cluster), events);
  }

  private target(r: ResourceSet): Cluster {
    const sa = r.spec.serviceAccountName ?? this.options.defaultServiceAccount;
    return sa ? this.cluster.asServiceAccount(r.metadata.namespace!, sa) : this.cluster;
  }

  private async setFinalizers(r: ResourceSet, p: string, finalizers: string[]): Promise<ResourceSet> {
    return this.cluster.client.patch<ResourceSet>(p, "merge", {
      metadata: { finalizers, resourceVersion: r.metadata.resourceVersion },
    });
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const p = path(req.namespace, req.name);
    const found = await this.objects.read(p, ctx.cached);
    if (!found) return;
    const finalizers = found.metadata.finalizers ?? [];
    if (found.metadata.deletionTimestamp) {
      if (!finalizers.includes(OPERATOR_FINALIZER)) return;
      if (!isDisabled(found)) {
        const errors = await pruneAllTargets(this.applyContext(found), found);
        if (errors.length)
          throw new ReconcileFailure("ReconciliationFailed", `garbage collection failed: ${errors.join("; ")}`);
      }
      await this.setFinalizers(
        found,
        p,
        finalizers.filter((f) => f !== OPERATOR_FINALIZER),
      );
      return;
    }
    const r = finalizers.includes(OPERATOR_FINALIZER)
      ? found
      : await this.setFinalizers(found, p, [...finalizers, OPERATOR_FINALIZER]);
    if (isDisabled(r)) {
      ctx.log.info("Reconciliation is disabled");
      await this.events.record(r, "Warning", "ReconciliationDisabled", "Reconciliation is disabled");
      return;
    }
    const started = Date.now();
    let attempt: Attempt;
    try {
      attempt = await this.attempt(r, p, started);
    } catch (err) {
      const outcome = asFailure(
        err,
        (m) => new ReconcileFailure("ReconciliationFailed", `reconciliation failed: ${m}`),
      );
      attempt = { outcome, status: {} };
    }
    const next = await this.finisher.finish(r, p, ctx, {
      outcome: attempt.outcome,
      conditions: attempt.conditions ?? r.status?.conditions ?? [],
      status: attempt.status,
      timing: { intervalMs: intervalOf(r) },
    });
    if (attempt.recheckMs !== undefined && next.requeueAfterMs !== undefined)
      next.requeueAfterMs = Math.min(next.requeueAfterMs, attempt.recheckMs);
    return next;
  }

  private async attempt(r: ResourceSet, p: string, started: number): Promise<Attempt> {
    refuseUnsupported(r.spec, RESOURCESET_UNSUPPORTED);
    clusterSelectorOf(r);
    await checkDependencies(this.cluster, r, this.options.requeueDependencyMs ?? 5_000);
    await this.objects.patchStatus(r, p, {
      conditions: progressing(r.status?.conditions ?? [], r.metadata.generation, "Reconciliation in progress"),
    });

    const rendered = await renderResourceSet(this.cluster, r);
    const removal = removalOf(r, this.options.clusterRemovalGraceMs);
    const rollout = rendered.clusterMode ? rolloutOf(r) : undefined;
    const now = new Date();
    const staging = (entries: ClusterInventory[], previous: RolloutStatus | undefined) =>
      stageTargets({
        rollout: rollout!,
        clusters: rendered.targets.map((t) => t.cluster!),
        entries,
        live: rendered.revision,
        ...(previous ? { previous } : {}),
        ...(r.metadata.annotations?.[APPROVE_ANNOTATION]
          ? { approved: r.metadata.annotations[APPROVE_ANNOTATION] }
          : {}),
        approveHint: `flotilla approve resourceset ${r.metadata.name} -n ${r.metadata.namespace}`,
        now,
      });
    const before = rollout && staging(r.status?.clusterInventories ?? [], r.status?.rollout);
    const applied = await applyTargets(
      this.applyContext(r),
      r,
      rendered,
      (cluster) => this.stepProgress(r, p, cluster),
      { revision: rendered.revision, ...(before ? { apply: before.apply } : {}), removal, now },
    );
    // The rollout as it stands after this apply; a stage it opens moves at the next reconcile, at once.
    const after = before && staging(applied.clusterInventories ?? [], before.plan.status);
    const opened = after && [...after.apply].some((c) => !before.apply.has(c)) ? 1_000 : undefined;
    const recheckMs = [applied.recheckMs, after?.plan.recheckMs, opened].filter((x) => x !== undefined);
    const conditions = removalCondition(
      r.status?.conditions ?? [],
      applied.leaving,
      removal.policy,
      r.metadata.generation,
    );
    const objects = rendered.targets.flatMap((t) => t.objects);
    const digest = setDigest(applied.targets.flatMap((t) => t.prepared));
    const inputCount = rendered.targets.reduce((n, t) => n + t.inputCount, 0);
    const metadata = {
      inputs: String(inputCount),
      resources: String(objects.length),
      ...(r.spec.steps?.length ? { steps: String(r.spec.steps.length) } : {}),
      ...(rendered.clusterMode ? { clusters: String(rendered.targets.length) } : {}),
    };
    const record = (status: string) =>
      recordHistory(r, { digest, status, at: new Date(), durationMs: Date.now() - started, metadata });
    const changes = changeMessage(applied, rendered.clusterMode, r.metadata.namespace!);
    if (changes) await this.events.record(r, "Normal", "ApplySucceeded", changes);
    const kept = {
      inventory: applied.inventory,
      ...(applied.clusterInventories ? { clusterInventories: applied.clusterInventories } : {}),
      externalChecksumRefs: applied.externalChecksumRefs,
      // null removes a rollout the annotation no longer declares.
      rollout: after ? after.plan.status : null,
    };
    const extra = { conditions, ...(recheckMs.length ? { recheckMs: Math.min(...recheckMs) } : {}) };
    const failed = (message: string): Attempt => ({
      ...extra,
      outcome: new ReconcileFailure("ReconciliationFailed", message),
      status: {
        ...kept,
        history: record("ReconciliationFailed"),
      },
    });
    if (applied.failures.length) return failed(`reconciliation failed: ${applied.failures.join("; ")}`);
    if (r.spec.wait && objects.length) {
      try {
        for (const t of applied.targets)
          try {
            await waitForSet(t.target, t.final.prepared, { timeoutMs: t.final.timeoutMs, intervalMs: 1000 });
          } catch (err) {
            const where = t.cluster ? `Cluster ${r.metadata.namespace}/${t.cluster}: ` : "";
            // The last named step's failure names it, as the operator's stepError does.
            throw new Error(
              t.final.name === undefined
                ? `${where}health check failed after ${goDuration(Date.now() - started)}: ${(err as Error).message}`
                : `${where}step "${t.final.name}" health check failed: ${(err as Error).message}`,
              { cause: err },
            );
          }
      } catch (err) {
        return failed(`reconciliation failed: ${(err as Error).message}`);
      }
    }
    const staged = after && !after.plan.done ? `; rollout: ${rolloutSummary(after.plan.status)}` : "";
    const message = `Reconciliation finished in ${goDuration(Date.now() - started)}${staged}`;
    const history = record("ReconciliationSucceeded");
    return {
      ...extra,
      outcome: { reason: "ReconciliationSucceeded", message, event: { reason: "ReconciliationSucceeded", message } },
      status: { ...kept, lastAppliedRevision: digest, history },
    };
  }

  /** Before a non-final step's health check: Reconciling names the step; its changes are an event. */
  private stepProgress(r: ResourceSet, p: string, cluster?: string): StepProgress {
    const on = cluster ? ` on Cluster ${r.metadata.namespace}/${cluster}` : "";
    return async (step, i, total, changed) => {
      await this.objects.patchStatus(r, p, {
        conditions: progressing(
          r.status?.conditions ?? [],
          r.metadata.generation,
          `Applying step ${i + 1}/${total} "${step.name}"${on}`,
        ),
      });
      if (changed.length)
        await this.events.record(
          r,
          "Normal",
          "ApplySucceeded",
          `${cluster ? `Cluster ${r.metadata.namespace}/${cluster}: ` : ""}step "${step.name}": ${formatChangeSet(changed)}`,
        );
    };
  }

  private applyContext(r: ResourceSet): ApplyContext {
    return { local: this.cluster, own: this.target(r), defaultServiceAccount: this.options.defaultServiceAccount };
  }
}
