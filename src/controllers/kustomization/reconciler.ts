// Kustomization reconciler (Flux v1 semantics): dependencies first, then the source artifact, the
// build at spec.path, server-side apply to the target cluster (this one, or the kubeconfig Secret's,
// impersonating the service account there), inventory, prune of what was removed (never because a
// source failed or a render came out empty), health, and status with Flux's conditions and history.
// A failure's message goes to status, an event and the log: it is redacted of every Secret value the
// attempt handled (Secrets in the set, values substituted from Secrets), wherever the text came from.
import { createHash } from "node:crypto";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import { KUSTOMIZE_GROUP } from "../../api/kinds.js";
import type { Cluster } from "../../kube/cluster.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { ReconcileContext, Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { SourceFetcher } from "../../sources/consumer.js";
import type { ArtifactLimits } from "../../sources/artifact/limits.js";
import {
  formatChangeSet,
  hasChanged,
  inventoryFromChangeSet,
  pruneStale,
  Redactor,
  ResourceManager,
  ResourceManagerError,
  staleEntries,
} from "../../ssa/index.js";
import { AppReconciler } from "../kit/app-reconciler.js";
import { type Attempted, attemptOutcome } from "../kit/attempt.js";
import { ReconcileFailure } from "../kit/failure.js";
import { isFailure } from "../kit/outcome.js";
import { PathNotFoundError } from "./build.js";
import { compileReadyExprs } from "../kit/dependencies.js";
import { checkDependencies, kustomizationPath } from "./dependencies.js";
import { fetchSource } from "./fetch-source.js";
import { finalizeKustomization } from "./finalize.js";
import { checkHealth, compileHealthChecks, HealthCheckFailure } from "./health.js";
import { KUSTOMIZATION_UNSUPPORTED } from "./unsupported-fields.js";
import { refuseUnsupported } from "../kit/unsupported.js";
import { DeferredWrite, PROGRESS_WRITE_DELAY_MS } from "../kit/deferred-write.js";
import { commitStatusEvent, revisionAnnotations } from "./commit-status-event.js";
import { type Attempt, attemptStatus, markProgressing, phaseDurations } from "./attempt.js";
import { targetCluster, targetHints } from "../kit/target-cluster.js";
import { intervalMs, retryIntervalMs } from "./timing.js";
import { substitutionVariables } from "./variables.js";
import {
  kustomizationApplyOptions,
  kustomizationApplyOwner,
  prunes,
  renderKustomization,
  renderKustomizationDecrypted,
} from "./render-apply.js";
import { DecryptionError } from "./sops-decrypt.js";
import { encryptedSecretRefusal } from "./sops-formats.js";
import { decryptionSpecRefusal, type SopsAgeSecret, sopsKeyringFor } from "./sops-keys.js";

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
  /** --artifact-max-size and --artifact-max-files: a source artifact over them is not unpacked. */
  artifactLimits?: ArtifactLimits;
  /** Flux's --sops-age-secret: the age keys for a spec.decryption without secretRef. */
  sopsAgeSecret?: SopsAgeSecret;
}

const DELETION_POLICIES = new Set(["MirrorPrune", "Delete", "WaitForTermination", "Orphan"]);

export class KustomizationReconciler extends AppReconciler<Kustomization> {
  constructor(
    cluster: Cluster,
    sources: SourceFetcher,
    events: EventRecorder,
    private readonly options: KustomizationControllerOptions = {},
  ) {
    super(cluster, sources, events, options.requeueDependencyMs);
  }

  protected pathOf(namespace: string, name: string): string {
    return kustomizationPath(namespace, name);
  }

  protected finalize(found: Kustomization, path: string, ctx: ReconcileContext): Promise<Result | void> {
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

  protected async reconcileLive(ks: Kustomization, path: string, ctx: ReconcileContext): Promise<Result> {
    const started = Date.now();
    const attempt: Attempt = { conditions: [...(ks.status?.conditions ?? [])], phases: { started: started } };
    const secrets = new Redactor();
    const progress = new DeferredWrite(PROGRESS_WRITE_DELAY_MS);
    const outcome = await attemptOutcome(async () => {
      await this.attempt(ks, path, attempt, ctx, secrets, progress);
      attempt.phases.done = Date.now();
      ctx.log.debug("reconcile phases", phaseDurations(attempt.phases));
      const event = commitStatusEvent(ks, attempt.revision, Date.now() - started, intervalMs(ks.spec));
      return { reason: "ReconciliationSucceeded", message: `Applied revision: ${attempt.revision}`, event };
    });
    if (isFailure(outcome)) {
      outcome.message = secrets.redact(outcome.message);
      if (outcome instanceof HealthCheckFailure)
        attempt.conditions = outcome.conditions.map((c) => ({ ...c, message: secrets.redact(c.message) }));
    }
    await progress.settle();
    const attempted: Attempted = {
      conditions: attempt.conditions,
      status: attemptStatus(ks, attempt, outcome, started),
    };
    return this.finisher.finish(ks, path, ctx, {
      outcome,
      ...attempted,
      timing: { intervalMs: intervalMs(ks.spec), retryIntervalMs: retryIntervalMs(ks.spec) },
      eventAnnotations: revisionAnnotations(attempt.revision),
    });
  }

  /** One pass from dependencies to health; throws a ReconcileFailure naming Flux's reason. */
  private async attempt(
    ks: Kustomization,
    path: string,
    attempt: Attempt,
    ctx: ReconcileContext,
    secrets: Redactor,
    progress: DeferredWrite,
  ): Promise<void> {
    const spec = ks.spec;
    refuseUnsupported(spec, KUSTOMIZATION_UNSUPPORTED);
    const healthExprs = compileHealthChecks(spec);
    const readyExprs = compileReadyExprs(ks);
    if (spec.deletionPolicy && !DELETION_POLICIES.has(spec.deletionPolicy))
      throw new ReconcileFailure(
        "InvalidDeletionPolicy",
        `spec.deletionPolicy '${spec.deletionPolicy}' is not one of ${[...DELETION_POLICIES].join(", ")}`,
        { stalled: true },
      );
    const decryptionRefused = decryptionSpecRefusal(ks);
    if (decryptionRefused) throw decryptionRefused;
    const refs = { noCrossNamespaceRefs: this.options.noCrossNamespaceRefs, waitMs: this.waitMs };
    await checkDependencies(this.cluster, this.sources, ks, refs, readyExprs);
    const fetched = await fetchSource(this.sources, ks, { ...refs, limits: this.options.artifactLimits });
    attempt.revision = fetched.artifact.revision;
    if (attempt.revision !== ks.status?.lastAppliedRevision || ks.status?.observedGeneration !== ks.metadata.generation)
      markProgressing(ks, attempt, progress, (status) => this.objects.patchStatus(ks, path, status), ctx);
    attempt.phases.fetched = Date.now();
    let target, objects;
    try {
      target = await targetCluster(this.cluster, ks, this.options.defaultServiceAccount, this.waitMs);
      objects = await this.build(ks, fetched.dir, secrets);
    } finally {
      fetched.release(); // the build has read every file it needs
    }
    secrets.addObjects(objects);
    const stillEncrypted = spec.decryption
      ? undefined
      : encryptedSecretRefusal(objects as unknown as Record<string, unknown>[]);
    if (stillEncrypted) throw new ReconcileFailure("ReconciliationFailed", stillEncrypted);
    attempt.phases.built = Date.now();
    attempt.digest = `sha256:${createHash("sha256").update(JSON.stringify(objects)).digest("hex")}`;
    const owner = kustomizationApplyOwner(ks);
    const manager = new ResourceManager(target, kustomizationApplyOptions(ks, this.options.fieldManager));
    let changeSet;
    try {
      changeSet = await manager.apply(objects);
    } catch (err) {
      throw new ReconcileFailure(
        "ReconciliationFailed",
        `${(err as Error).message}${targetHints(ks, this.options.defaultServiceAccount, err)}`,
      );
    }
    attempt.phases.applied = Date.now();
    const applied = inventoryFromChangeSet(changeSet);
    attempt.inventory = applied;
    if (prunes(ks)) {
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
    attempt.conditions = await checkHealth(ks, target, changeSet, attempt.conditions, healthExprs);
  }

  private async build(ks: Kustomization, dir: string, secrets: Redactor): Promise<KubeObject[]> {
    const vars = await substitutionVariables(this.cluster, ks, secrets);
    const strict = this.options.strictSubstitutions ?? false;
    // The keys live in a private directory for this build only (keyring.ts), removed whatever happens.
    const keyring = ks.spec.decryption ? await sopsKeyringFor(this.cluster, ks, this.options.sopsAgeSecret) : undefined;
    try {
      if (!keyring) return renderKustomization(dir, ks, vars, strict);
      return await renderKustomizationDecrypted(dir, ks, vars, strict, keyring, secrets);
    } catch (err) {
      if (err instanceof ReconcileFailure) throw err;
      if (err instanceof DecryptionError) throw new ReconcileFailure("BuildFailed", secrets.redact(err.message));
      // A path missing from the artifact may come with the source's next revision: wait for it.
      if (err instanceof PathNotFoundError)
        throw new ReconcileFailure("ArtifactFailed", err.message, { retryAfterMs: this.waitMs });
      throw new ReconcileFailure("BuildFailed", (err as Error).message);
    } finally {
      await keyring?.close();
    }
  }
}
