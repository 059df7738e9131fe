// Kustomization reconciler (Flux v1 semantics): dependencies first, then the source artifact, the
// build at spec.path, server-side apply to the target cluster (this one, or the kubeconfig Secret's,
// impersonating the service account there), inventory, prune of what was removed (never because a
// source failed or a render came out empty), and health.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KUSTOMIZE_GROUP, type Kustomization } from "../../api/kustomize/kustomization.js";
import { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import { endpointFromKubeconfig } from "../../kube/kubeconfig.js";
import { isTrue, READY, setCondition } from "../../runtime/conditions.js";
import type { KubeObject } from "../../kube/object.js";
import {
  REQUESTED_AT_ANNOTATION,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
  type Watch,
} from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import { ArtifactNotReadyError, type SourceFetcher, SourceNotFoundError } from "../../sources/consumer.js";
import {
  formatChangeSet,
  hasChanged,
  inventoryFromChangeSet,
  pruneStale,
  ResourceManager,
  ResourceManagerError,
  waitForSet,
} from "../../ssa/index.js";
import { parseDuration } from "../../util/duration.js";
import { SOURCE_FINALIZER } from "../source-status.js";
import { buildKustomizationObjects, PathNotFoundError } from "./build.js";

export interface KustomizationControllerOptions {
  /** Flux's --no-cross-namespace-refs. */
  noCrossNamespaceRefs?: boolean;
  /** Flux's --default-service-account: impersonated when spec.serviceAccountName is empty. */
  defaultServiceAccount?: string;
  /** Flux's --requeue-dependency (30 s). */
  requeueDependencyMs?: number;
  fieldManager?: string;
}

class ReconcileFailure extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly stalled = false,
  ) {
    super(message);
  }
}

/** Triggers a Kustomization when its source gets a new artifact revision (Flux watches sources the same way). */
export const SOURCE_INDEX = "sourceRef";
export function sourceIndex(ks: KubeObject): string[] {
  const ref = (ks as Kustomization).spec?.sourceRef;
  return ref ? [`${ref.kind}/${ref.namespace ?? ks.metadata.namespace}/${ref.name}`] : [];
}
const revisionOf = (o: KubeObject) =>
  (o.status as { artifact?: { revision?: string } } | undefined)?.artifact?.revision;
export const sourceWatch = (kind: "GitRepository" | "OCIRepository" | "Bucket" = "GitRepository"): Watch => ({
  kind: { group: "source.toolkit.fluxcd.io", version: "v1", kind },
  predicate: (o, n) => revisionOf(o) !== revisionOf(n),
  map: (source, controller) =>
    controller.informer
      .byIndex(SOURCE_INDEX, `${kind}/${source.metadata.namespace}/${source.metadata.name}`)
      .map((k) => `${k.metadata.namespace}/${k.metadata.name}`),
});

export class KustomizationReconciler implements Reconciler {
  constructor(
    private readonly cluster: Cluster,
    private readonly sources: SourceFetcher,
    private readonly events: EventRecorder,
    private readonly options: KustomizationControllerOptions = {},
  ) {}

  private path(ns: string, name: string): string {
    return `/apis/${KUSTOMIZE_GROUP}/v1/namespaces/${ns}/kustomizations/${name}`;
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const path = this.path(req.namespace, req.name);
    let ks: Kustomization;
    try {
      ks = await this.cluster.client.get<Kustomization>(path);
    } catch (err) {
      if (err instanceof NotFoundError) return;
      throw err;
    }
    const finalizers = ks.metadata.finalizers ?? [];
    if (ks.metadata.deletionTimestamp) return this.finalize(ks, path, finalizers, ctx);
    if (!finalizers.includes(SOURCE_FINALIZER)) {
      ks = await this.cluster.client.patch<Kustomization>(path, "merge", {
        metadata: { finalizers: [...finalizers, SOURCE_FINALIZER], resourceVersion: ks.metadata.resourceVersion },
      });
    }
    const spec = ks.spec;
    if (spec.suspend) return;
    const interval = parseDuration(spec.interval);
    const retry = spec.retryInterval ? parseDuration(spec.retryInterval) : interval;
    const generation = ks.metadata.generation;
    let conditions = [...(ks.status?.conditions ?? [])];
    const base = {
      ...ks.status,
      lastHandledReconcileAt: ks.metadata.annotations?.[REQUESTED_AT_ANNOTATION] ?? ks.status?.lastHandledReconcileAt,
    };
    let revision: string | undefined;
    try {
      await this.checkDependencies(ks);
      if (spec.decryption)
        throw new ReconcileFailure("DecryptionFailed", "SOPS decryption is not supported yet by flotilla", true);
      const sourceNs = spec.sourceRef.namespace ?? ks.metadata.namespace!;
      if (this.options.noCrossNamespaceRefs && sourceNs !== ks.metadata.namespace) {
        throw new ReconcileFailure(
          "AccessDenied",
          `can't access '${spec.sourceRef.kind}/${sourceNs}/${spec.sourceRef.name}', cross-namespace references have been blocked`,
          true,
        );
      }
      let fetched;
      try {
        fetched = await this.sources.fetch(
          { kind: spec.sourceRef.kind, name: spec.sourceRef.name, namespace: sourceNs },
          ks.metadata.namespace!,
        );
      } catch (err) {
        if (err instanceof SourceNotFoundError || err instanceof ArtifactNotReadyError)
          throw new ReconcileFailure("ArtifactFailed", err.message);
        // A download that failed (source controller restarting, artifact moved) is transient: retry
        // after --requeue-dependency like a missing artifact, not after the full interval.
        const cause = (err as Error & { cause?: Error }).cause;
        throw new ReconcileFailure(
          "ArtifactFailed",
          `failed to fetch the artifact of ${spec.sourceRef.kind}/${sourceNs}/${spec.sourceRef.name}: ${(err as Error).message}${cause?.message ? ` (${cause.message})` : ""}`,
        );
      }
      revision = fetched.artifact.revision;
      const target = await this.targetCluster(ks);
      const work = mkdtempSync(join(tmpdir(), "flotilla-ks-"));
      let objects;
      try {
        objects = buildKustomizationObjects(fetched.dir, spec, join(work, "src"), await this.variables(ks));
      } catch (err) {
        throw new ReconcileFailure(
          err instanceof PathNotFoundError ? "ArtifactFailed" : "BuildFailed",
          (err as Error).message,
        );
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
      const owner = { group: KUSTOMIZE_GROUP, name: ks.metadata.name, namespace: ks.metadata.namespace! };
      const manager = new ResourceManager(target, {
        fieldManager: this.options.fieldManager ?? "kustomize-controller",
        owner,
        force: spec.force,
      });
      let changeSet;
      try {
        changeSet = await manager.apply(objects);
      } catch (err) {
        throw new ReconcileFailure(
          "ReconciliationFailed",
          err instanceof ResourceManagerError ? err.message : `${(err as Error).message}`,
        );
      }
      let inventory = inventoryFromChangeSet(changeSet);
      if (spec.prune) {
        const pruned = await pruneStale(target, ks.status?.inventory, inventory, {
          owner,
          allowEmptySet: objects.length === 0 && !ks.status?.inventory?.entries.length,
        });
        // What failed to delete stays in the inventory, so the next reconcile tries again.
        inventory = { entries: [...inventory.entries, ...pruned.failed] };
        if (pruned.errors.length) throw new ReconcileFailure("PruneFailed", pruned.errors.join("; "));
        const deleted = pruned.changeSet.filter((e) => e.action === "deleted");
        if (deleted.length) ctx.log.info("garbage collection completed", { changes: formatChangeSet(deleted) });
      }
      const changed = changeSet.filter(hasChanged);
      if (changed.length)
        await this.events.record(ks, "Normal", "Progressing", formatChangeSet(changed), {
          [`${KUSTOMIZE_GROUP}/revision`]: revision,
        });
      const health = spec.wait
        ? changeSet.map((e) => ({
            apiVersion: e.group ? `${e.group}/${e.version}` : e.version,
            kind: e.kind,
            metadata: { name: e.name, namespace: e.namespace || undefined },
          }))
        : (spec.healthChecks ?? []).map((h) => ({
            apiVersion: h.apiVersion ?? "apps/v1",
            kind: h.kind,
            metadata: { name: h.name, namespace: h.namespace ?? ks.metadata.namespace },
          }));
      if (health.length) {
        const timeoutMs = spec.timeout ? parseDuration(spec.timeout) : Math.max(interval - 30_000, 30_000);
        try {
          await waitForSet(target, health, { timeoutMs, intervalMs: 2000 });
          conditions = setCondition(conditions, {
            type: "Healthy",
            status: "True",
            reason: "Succeeded",
            message: "Health check passed",
            observedGeneration: generation,
          });
        } catch (err) {
          conditions = setCondition(conditions, {
            type: "Healthy",
            status: "False",
            reason: "HealthCheckFailed",
            message: (err as Error).message,
            observedGeneration: generation,
          });
          await this.patchStatus(path, { ...base, inventory, lastAttemptedRevision: revision, conditions });
          throw new ReconcileFailure("HealthCheckFailed", `health check failed: ${(err as Error).message}`);
        }
      }
      conditions = conditions.filter((c) => c.type !== "Reconciling" && c.type !== "Stalled");
      conditions = setCondition(conditions, {
        type: READY,
        status: "True",
        reason: "ReconciliationSucceeded",
        message: `Applied revision: ${revision}`,
        observedGeneration: generation,
      });
      await this.patchStatus(path, {
        ...base,
        inventory,
        lastAppliedRevision: revision,
        lastAttemptedRevision: revision,
        observedGeneration: generation,
        conditions,
      });
      return { requeueAfterMs: interval };
    } catch (err) {
      const failure =
        err instanceof ReconcileFailure ? err : new ReconcileFailure("ReconciliationFailed", (err as Error).message);
      conditions = setCondition(conditions, {
        type: READY,
        status: "False",
        reason: failure.reason,
        message: failure.message,
        observedGeneration: generation,
      });
      if (failure.stalled)
        conditions = setCondition(conditions, {
          type: "Stalled",
          status: "True",
          reason: failure.reason,
          message: failure.message,
          observedGeneration: generation,
        });
      await this.patchStatus(path, {
        ...base,
        ...(revision ? { lastAttemptedRevision: revision } : {}),
        observedGeneration: generation,
        conditions,
      });
      if (failure.reason !== "DependencyNotReady")
        await this.events.record(ks, "Warning", failure.reason, failure.message);
      // Waiting on another object (a dependency, a source's artifact): retry soon, as Flux's --requeue-dependency.
      if (failure.reason === "DependencyNotReady" || failure.reason === "ArtifactFailed") {
        return { requeueAfterMs: this.options.requeueDependencyMs ?? 30_000 };
      }
      if (failure.stalled) return;
      ctx.log.error(failure.message, { reason: failure.reason });
      return { requeueAfterMs: retry };
    }
  }

  private async patchStatus(path: string, status: Record<string, unknown>): Promise<void> {
    await this.cluster.client.patch(`${path}/status`, "merge", { status });
  }

  /** Ready = exists, observed its latest generation, Ready=True, and (same source) applied the same revision. */
  private async checkDependencies(ks: Kustomization): Promise<void> {
    for (const dep of ks.spec.dependsOn ?? []) {
      const ns = dep.namespace ?? ks.metadata.namespace!;
      const notReady = new ReconcileFailure("DependencyNotReady", `dependency '${ns}/${dep.name}' is not ready`);
      let other: Kustomization;
      try {
        other = await this.cluster.client.get<Kustomization>(this.path(ns, dep.name));
      } catch (err) {
        if (err instanceof NotFoundError) throw notReady;
        throw err;
      }
      if (other.status?.observedGeneration !== other.metadata.generation || !isTrue(other.status?.conditions, READY))
        throw notReady;
      const sameSource =
        other.spec.sourceRef.kind === ks.spec.sourceRef.kind &&
        other.spec.sourceRef.name === ks.spec.sourceRef.name &&
        (other.spec.sourceRef.namespace ?? ns) === (ks.spec.sourceRef.namespace ?? ks.metadata.namespace);
      if (
        sameSource &&
        ks.status?.lastAttemptedRevision &&
        other.status?.lastAppliedRevision !== ks.status.lastAttemptedRevision
      ) {
        const source = await this.sources
          .artifactOf(
            { kind: ks.spec.sourceRef.kind, name: ks.spec.sourceRef.name, namespace: ks.spec.sourceRef.namespace },
            ks.metadata.namespace!,
          )
          .catch(() => undefined);
        if (source && other.status?.lastAppliedRevision !== source.revision) throw notReady;
      }
    }
  }

  /** This cluster or the kubeconfig Secret's (re-read every reconcile), as the service account if any. */
  private async targetCluster(ks: Kustomization): Promise<Cluster> {
    let target = this.cluster;
    const ref = ks.spec.kubeConfig?.secretRef;
    if (ref) {
      const id = `${ks.metadata.namespace}/${ref.name}`;
      let secret: { data?: Record<string, string> };
      try {
        secret = await this.cluster.client.get(`/api/v1/namespaces/${ks.metadata.namespace}/secrets/${ref.name}`);
      } catch (err) {
        throw new ReconcileFailure(
          "ReconciliationFailed",
          `failed to get kubeconfig secret '${id}': ${(err as Error).message.replace(/^[^:]+: /, "")}`,
        );
      }
      const key = ref.key ?? ["value", "value.yaml"].find((k) => secret.data?.[k]);
      const data = key ? secret.data?.[key] : undefined;
      if (!data)
        throw new ReconcileFailure(
          "ReconciliationFailed",
          `kubeconfig secret '${id}' has no key '${ref.key ?? "value"}'`,
        );
      try {
        target = new Cluster(
          endpointFromKubeconfig(Buffer.from(data, "base64").toString("utf8"), { source: `secret ${id}` }),
        );
      } catch (err) {
        throw new ReconcileFailure("ReconciliationFailed", (err as Error).message, true);
      }
    }
    const sa = ks.spec.serviceAccountName ?? this.options.defaultServiceAccount;
    return sa ? target.asServiceAccount(ks.metadata.namespace!, sa) : target;
  }

  private async variables(ks: Kustomization): Promise<Record<string, string>> {
    const vars: Record<string, string> = {};
    for (const from of ks.spec.postBuild?.substituteFrom ?? []) {
      const plural = from.kind === "Secret" ? "secrets" : "configmaps";
      try {
        const obj = await this.cluster.client.get<{ data?: Record<string, string> }>(
          `/api/v1/namespaces/${ks.metadata.namespace}/${plural}/${from.name}`,
        );
        for (const [k, v] of Object.entries(obj.data ?? {}))
          vars[k] = from.kind === "Secret" ? Buffer.from(v, "base64").toString("utf8") : v;
      } catch (err) {
        if (!(err instanceof NotFoundError && from.optional))
          throw new ReconcileFailure(
            "BuildFailed",
            `substitute from '${from.kind}/${from.name}' failed: ${(err as Error).message}`,
          );
      }
    }
    return { ...vars, ...ks.spec.postBuild?.substitute };
  }

  private async finalize(ks: Kustomization, path: string, finalizers: string[], ctx: ReconcileContext): Promise<void> {
    if (ks.spec.prune && ks.status?.inventory?.entries.length) {
      try {
        const target = await this.targetCluster(ks);
        const owner = { group: KUSTOMIZE_GROUP, name: ks.metadata.name, namespace: ks.metadata.namespace! };
        const result = await pruneStale(target, ks.status.inventory, { entries: [] }, { owner, allowEmptySet: true });
        if (result.errors.length) ctx.log.error("pruning for deleted resource failed", { errors: result.errors });
      } catch (err) {
        // A gone remote cluster must not keep the object forever: report, then let it go.
        ctx.log.error("pruning for deleted resource failed", { error: (err as Error).message });
      }
    }
    await this.cluster.client.patch(path, "merge", {
      metadata: {
        finalizers: finalizers.filter((f) => f !== SOURCE_FINALIZER),
        resourceVersion: ks.metadata.resourceVersion,
      },
    });
  }
}
