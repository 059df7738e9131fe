// Kustomization reconciler (Flux v1 semantics): dependencies first, then the source artifact, the
// build at spec.path, server-side apply to the target cluster (this one, or the kubeconfig Secret's,
// impersonating the service account there), inventory, prune of what was removed (never because a
// source failed or a render came out empty), health, and status with Flux's conditions and history.
import { createHash } from "node:crypto";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import { KUSTOMIZE_GROUP } from "../../api/kinds.js";
import type { Cluster } from "../../kube/cluster.js";
import type { KubeObject } from "../../api/meta/object.js";
import { setCondition } from "../../runtime/conditions.js";
import { READY, RECONCILING, STALLED } from "../../api/meta/conditions.js";
import type { ReconcileContext, Reconciler, Request, Result } from "../../runtime/controller.js";
import { FLUX_FINALIZER, REQUESTED_AT_ANNOTATION } from "../../api/meta/annotations.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { SourceFetcher } from "../../sources/consumer.js";
import {
  formatChangeSet,
  hasChanged,
  inventoryFromChangeSet,
  pruneStale,
  ResourceManager,
  ResourceManagerError,
  staleEntries,
} from "../../ssa/index.js";
import { ReconciledObjects } from "../reconciled-objects.js";
import { buildKustomizationObjects, PathNotFoundError } from "./build.js";
import { checkDependencies, kustomizationPath } from "./dependencies.js";
import { ReconcileFailure } from "./failure.js";
import { fetchSource } from "./fetch-source.js";
import { finalizeKustomization } from "./finalize.js";
import { checkHealth, HealthCheckFailure } from "./health.js";
import { type Attempt, attemptHistory, phaseDurations, progressingConditions } from "./attempt.js";
import { impersonationHint, targetCluster } from "./target-cluster.js";
import { intervalMs, retryIntervalMs } from "./timing.js";
import { substitutionVariables } from "./variables.js";

export { SOURCE_INDEX, sourceIndex, sourceWatch } from "./source-watch.js";

export interface KustomizationControllerOptions {
  /** Flux's --no-cross-namespace-refs. */
  noCrossNamespaceRefs?: boolean;
  /** Flux's --default-service-account: impersonated when spec.serviceAccountName is empty. */
  defaultServiceAccount?: string;
  /** Flux's --requeue-dependency (30 s). */
  requeueDependencyMs?: number;
  fieldManager?: string;
  /** Flux's StrictPostBuildSubstitutions: an unset `${var}` without default fails the build. */
  strictSubstitutions?: boolean;
}

const DELETION_POLICIES = new Set(["MirrorPrune", "Delete", "WaitForTermination", "Orphan"]);

export class KustomizationReconciler implements Reconciler {
  private readonly objects: ReconciledObjects<Kustomization>;

  constructor(
    private readonly cluster: Cluster,
    private readonly sources: SourceFetcher,
    private readonly events: EventRecorder,
    private readonly options: KustomizationControllerOptions = {},
  ) {
    this.objects = new ReconciledObjects(cluster);
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const path = kustomizationPath(req.namespace, req.name);
    const found = await this.objects.read(path, ctx.cached);
    if (!found) return;
    if (found.metadata.deletionTimestamp) {
      if (!found.metadata.finalizers?.includes(FLUX_FINALIZER)) return;
      return finalizeKustomization(
        found,
        {
          events: this.events,
          target: () => targetCluster(this.cluster, found, this.options.defaultServiceAccount),
          patchStatus: (status) => this.objects.patchStatus(found, path, status),
          release: () => this.objects.removeFinalizer(found, path),
          retryMs: retryIntervalMs(found.spec),
        },
        ctx,
      );
    }
    const ks = await this.objects.addFinalizer(found, path);
    if (ks.spec.suspend) return;
    const started = Date.now();
    const attempt: Attempt = { conditions: [...(ks.status?.conditions ?? [])], phases: { started: started } };
    const generation = ks.metadata.generation;
    const base = {
      lastHandledReconcileAt: ks.metadata.annotations?.[REQUESTED_AT_ANNOTATION] ?? ks.status?.lastHandledReconcileAt,
    };
    try {
      await this.attempt(ks, path, attempt, ctx);
      attempt.phases.done = Date.now();
      ctx.log.debug("reconcile phases", phaseDurations(attempt.phases));
      let conditions = attempt.conditions.filter((c) => c.type !== RECONCILING && c.type !== STALLED);
      conditions = setCondition(conditions, {
        type: READY,
        status: "True",
        reason: "ReconciliationSucceeded",
        message: `Applied revision: ${attempt.revision}`,
        observedGeneration: generation,
      });
      await this.objects.patchStatus(ks, path, {
        ...base,
        inventory: attempt.inventory,
        lastAppliedRevision: attempt.revision,
        lastAttemptedRevision: attempt.revision,
        observedGeneration: generation,
        conditions,
        history: attemptHistory(ks, attempt, "ReconciliationSucceeded", started),
      });
      return { requeueAfterMs: intervalMs(ks.spec) };
    } catch (err) {
      const failure =
        err instanceof ReconcileFailure ? err : new ReconcileFailure("ReconciliationFailed", (err as Error).message);
      if (failure instanceof HealthCheckFailure) attempt.conditions = failure.conditions;
      const mark = { reason: failure.reason, message: failure.message, observedGeneration: generation };
      let conditions = setCondition(attempt.conditions, { type: READY, status: "False", ...mark });
      conditions = failure.stalled
        ? setCondition(conditions, { type: STALLED, status: "True", ...mark })
        : conditions.filter((c) => c.type !== STALLED);
      await this.objects.patchStatus(ks, path, {
        ...base,
        ...(attempt.revision ? { lastAttemptedRevision: attempt.revision } : {}),
        // What was applied before the failure stays tracked, so a later prune still finds it.
        ...(attempt.inventory ? { inventory: attempt.inventory } : {}),
        observedGeneration: generation,
        conditions,
        history: attemptHistory(ks, attempt, failure.reason, started),
      });
      if (failure.reason !== "DependencyNotReady")
        await this.events.record(ks, "Warning", failure.reason, failure.message);
      // Waiting on another object (a dependency, a source's artifact): retry soon, as Flux's --requeue-dependency.
      if (failure.reason === "DependencyNotReady" || failure.reason === "ArtifactFailed") {
        return { requeueAfterMs: this.options.requeueDependencyMs ?? 30_000 };
      }
      if (failure.stalled) return;
      ctx.log.error(failure.message, { reason: failure.reason });
      return { requeueAfterMs: retryIntervalMs(ks.spec) };
    }
  }

  /** One pass from dependencies to health; throws a ReconcileFailure naming Flux's reason. */
  private async attempt(ks: Kustomization, path: string, attempt: Attempt, ctx: ReconcileContext): Promise<void> {
    const spec = ks.spec;
    if (spec.deletionPolicy && !DELETION_POLICIES.has(spec.deletionPolicy))
      throw new ReconcileFailure(
        "InvalidDeletionPolicy",
        `spec.deletionPolicy '${spec.deletionPolicy}' is not one of ${[...DELETION_POLICIES].join(", ")}`,
        true,
      );
    await checkDependencies(this.cluster, this.sources, ks, this.options.noCrossNamespaceRefs);
    if (spec.decryption)
      throw new ReconcileFailure("DecryptionFailed", "SOPS decryption is not supported yet by flotilla", true);
    const fetched = await fetchSource(this.sources, ks, this.options.noCrossNamespaceRefs);
    attempt.revision = fetched.artifact.revision;
    if (attempt.revision !== ks.status?.lastAppliedRevision || ks.status?.observedGeneration !== ks.metadata.generation)
      await this.markProgressing(ks, path, attempt);
    attempt.phases.fetched = Date.now();
    const target = await targetCluster(this.cluster, ks, this.options.defaultServiceAccount);
    const objects = await this.build(ks, fetched.dir);
    attempt.phases.built = Date.now();
    attempt.digest = `sha256:${createHash("sha256").update(JSON.stringify(objects)).digest("hex")}`;
    const owner = { group: KUSTOMIZE_GROUP, name: ks.metadata.name, namespace: ks.metadata.namespace! };
    const manager = new ResourceManager(target, {
      fieldManager: this.options.fieldManager ?? "kustomize-controller",
      owner,
      force: spec.force,
      previousInventory: ks.status?.inventory ?? { entries: [] },
    });
    let changeSet;
    try {
      changeSet = await manager.apply(objects);
    } catch (err) {
      throw new ReconcileFailure(
        "ReconciliationFailed",
        `${(err as Error).message}${impersonationHint(ks, this.options.defaultServiceAccount, err)}`,
      );
    }
    attempt.phases.applied = Date.now();
    const applied = inventoryFromChangeSet(changeSet);
    attempt.inventory = applied;
    if (spec.prune) {
      const pruned = await pruneStale(target, ks.status?.inventory, applied, {
        owner,
        allowEmptySet: objects.length === 0 && !ks.status?.inventory?.entries.length,
      }).catch((err: Error) => {
        // Refused (an empty set): nothing was deleted, so everything stays tracked.
        attempt.inventory = { entries: [...applied.entries, ...staleEntries(ks.status?.inventory, applied)] };
        throw new ReconcileFailure("PruneFailed", err instanceof ResourceManagerError ? err.message : `${err}`);
      });
      // What failed to delete stays in the inventory, so the next reconcile tries again.
      attempt.inventory = { entries: [...applied.entries, ...pruned.failed] };
      if (pruned.errors.length) throw new ReconcileFailure("PruneFailed", pruned.errors.join("; "));
      const deleted = pruned.changeSet.filter((e) => e.action === "deleted");
      if (deleted.length) ctx.log.info("garbage collection completed", { changes: formatChangeSet(deleted) });
    }
    const changed = changeSet.filter(hasChanged);
    if (changed.length)
      await this.events.record(ks, "Normal", "Progressing", formatChangeSet(changed), {
        [`${KUSTOMIZE_GROUP}/revision`]: attempt.revision,
      });
    attempt.conditions = await checkHealth(ks, target, changeSet, attempt.conditions);
  }

  private async build(ks: Kustomization, dir: string): Promise<KubeObject[]> {
    const vars = await substitutionVariables(this.cluster, ks);
    try {
      return buildKustomizationObjects(dir, ks.spec, vars, this.options.strictSubstitutions ?? false);
    } catch (err) {
      if (err instanceof ReconcileFailure) throw err;
      throw new ReconcileFailure(
        err instanceof PathNotFoundError ? "ArtifactFailed" : "BuildFailed",
        (err as Error).message,
      );
    }
  }

  /** New work (revision or generation): say so before applying, as Flux shows "Reconciliation in progress". */
  private async markProgressing(ks: Kustomization, path: string, attempt: Attempt): Promise<void> {
    attempt.conditions = progressingConditions(ks, attempt);
    await this.objects.patchStatus(ks, path, {
      lastAttemptedRevision: attempt.revision,
      conditions: attempt.conditions,
    });
  }
}
