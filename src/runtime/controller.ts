// A controller as controller-runtime runs one: an informer feeds a work queue through predicates,
// N workers reconcile keys (never one key twice at once), failures retry with per-key backoff,
// successes requeue after their interval with jitter, and shutdown lets in-flight reconciles finish.
import { randomUUID } from "node:crypto";
import { REQUESTED_AT_ANNOTATION } from "../api/meta/annotations.js";
import type { Cluster } from "../kube/cluster.js";
import { Informer } from "../kube/informer.js";
import type { GroupVersionKind, KubeObject } from "../api/meta/object.js";
import type { Logger } from "./logger.js";
import type { ControllerMetrics } from "./metrics.js";
import { WorkQueue } from "./workqueue.js";

export interface Request {
  namespace: string;
  name: string;
}

export interface ReconcileContext {
  log: Logger;
  reconcileID: string;
  /**
   * The object as the controller's informer holds it when the work began (controller-runtime's
   * cached read). It may lag behind the reconciler's own last write; see freshest().
   */
  cached?: KubeObject;
}

export interface Result {
  /** Reconcile again after this many milliseconds (jitter is added). */
  requeueAfterMs?: number;
  /**
   * The reconcile failed and the reconciler has reported it (status, event, log): retry with the
   * per-key backoff as after a thrown error, without logging it a second time.
   */
  backoff?: boolean;
}

export interface Reconciler {
  reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void>;
}

export type Predicate = (oldObj: KubeObject, newObj: KubeObject) => boolean;

/** Spec changed (generation bumped), or a reconcile was requested through the annotation. */
export const generationChanged: Predicate = (o, n) => o.metadata.generation !== n.metadata.generation;
export const reconcileRequested: Predicate = (o, n) =>
  (n.metadata.annotations?.[REQUESTED_AT_ANNOTATION] ?? "") !==
  (o.metadata.annotations?.[REQUESTED_AT_ANNOTATION] ?? "");
/** Deletion started (finalizers must run), or finalizers changed. */
export const deletionChanged: Predicate = (o, n) =>
  Boolean(n.metadata.deletionTimestamp) !== Boolean(o.metadata.deletionTimestamp);

/** ±pct random jitter, as Flux's --interval-jitter-percentage (5 by default). */
export function withJitter(ms: number, pct = 0.05): number {
  return Math.round(ms * (1 + (Math.random() * 2 - 1) * pct));
}

export interface ControllerOptions {
  name: string;
  kind: GroupVersionKind;
  cluster: Cluster;
  reconciler: Reconciler;
  log: Logger;
  metrics?: ControllerMetrics;
  concurrency?: number;
  /** Any predicate true → an update is queued (creations and deletions always are). */
  predicates?: Predicate[];
  /** Only objects matching this label selector (Flux's --watch-label-selector, for sharding). */
  labelSelector?: string;
  namespace?: string;
  jitterPct?: number;
  /** Other kinds whose changes enqueue our objects (e.g. a source's new artifact → its Kustomizations). */
  watches?: Watch[];
}

export interface Watch {
  kind: GroupVersionKind;
  /** Keys (`namespace/name`) of our objects to reconcile when `obj` changed. */
  map(obj: KubeObject, controller: Controller): string[];
  /** Only updates passing this predicate trigger (default: any change of status or generation). */
  predicate?: Predicate;
  /** A deleted object triggers too (default: only additions and updates). */
  onDelete?: boolean;
  /** Only objects matching this label selector are watched (Flux's --watch-configs-label-selector). */
  labelSelector?: string;
  /** Metadata only (no data, spec or status): for kinds whose changes matter but whose bodies must not be held (Secrets). */
  metadataOnly?: boolean;
}

const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ""}/${o.metadata.name}`;

export class Controller {
  /** --concurrent keys at once, shared fairly between namespaces (workqueue.ts). */
  readonly queue: WorkQueue;
  readonly informer: Informer;
  private readonly watched: Informer[] = [];
  private readonly watchedByKind = new Map<string, Informer>();
  private workers: Promise<void>[] = [];
  private readonly attached: { stop(): Promise<void> }[] = [];

  constructor(readonly options: ControllerOptions) {
    this.queue = new WorkQueue(undefined, options.concurrency ?? 4);
    this.informer = new Informer(options.cluster, {
      gvk: options.kind,
      namespace: options.namespace,
      labelSelector: options.labelSelector,
    });
    const predicates = options.predicates ?? [generationChanged, reconcileRequested, deletionChanged];
    this.informer.addHandlers({
      add: (o) => {
        this.recordReadiness(o);
        this.queue.add(keyOf(o));
      },
      update: (o, n) => {
        this.recordReadiness(n);
        if (predicates.some((p) => p(o, n))) this.queue.add(keyOf(n));
      },
      delete: (o) => {
        this.recordReadiness(o, true);
        this.queue.add(keyOf(o));
      },
    });
    for (const w of options.watches ?? []) {
      const informer = new Informer(options.cluster, {
        gvk: w.kind,
        namespace: options.namespace,
        labelSelector: w.labelSelector,
        metadataOnly: w.metadataOnly,
      });
      const enqueue = (o: KubeObject) => {
        for (const key of w.map(o, this)) if (this.inShard(key)) this.queue.add(key);
      };
      informer.addHandlers({
        add: enqueue,
        update: (o, n) => (!w.predicate || w.predicate(o, n)) && enqueue(n),
        ...(w.onDelete ? { delete: enqueue } : {}),
      });
      this.watched.push(informer);
      this.watchedByKind.set(`${w.kind.group}/${w.kind.kind}`, informer);
    }
  }

  /**
   * A sharded controller (--watch-label-selector) reconciles only objects its own informer holds: a
   * watch mapping another kind's change to a key (a TenantControlPlane to its Cluster, a Secret to the
   * objects naming it) must not pull in another shard's object, which the reconciler would then GET.
   */
  private inShard(key: string): boolean {
    if (!this.options.labelSelector) return true;
    const [namespace = "", name = ""] = key.split("/");
    return this.informer.get(name, namespace || undefined) !== undefined;
  }

  /** Something that lives as long as the controller (e.g. watches feeding its queue): stopped with it. */
  attach(part: { stop(): Promise<void> }): void {
    this.attached.push(part);
  }

  /** The informer of a watched kind, for wiring that follows its changes too (e.g. the drift watch). */
  watchedInformer(group: string, kind: string): Informer | undefined {
    return this.watchedByKind.get(`${group}/${kind}`);
  }

  /** A watched object as its informer holds it (undefined when not cached or not watched). */
  cachedWatched(group: string, kind: string, name: string, namespace?: string): KubeObject | undefined {
    const informer = this.watchedByKind.get(`${group}/${kind}`);
    return informer?.hasSynced() ? informer.get(name, namespace) : undefined;
  }

  /**
   * gotk_reconcile_condition as Flux records it: one series per status of the Ready condition, 1 for
   * the current one and 0 for the others; all gone once the object is deleted. Fed by the informer,
   * so it follows every status patch without extra reads.
   */
  private recordReadiness(o: KubeObject, deleted = false): void {
    const gauge = this.options.metrics?.reconcileCondition;
    if (!gauge) return;
    const conditions = (o.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions;
    const ready = conditions?.find((c) => c.type === "Ready");
    const labels = { kind: this.options.kind.kind, name: o.metadata.name, namespace: o.metadata.namespace ?? "" };
    for (const status of ["True", "False", "Unknown"]) {
      const series = { ...labels, type: "Ready", status };
      if (deleted) gauge.delete(series);
      else if (ready) gauge.set(series, ready.status === status ? 1 : 0);
    }
  }

  async start(): Promise<void> {
    for (const i of [this.informer, ...this.watched]) i.start();
    await Promise.all([this.informer, ...this.watched].map((i) => i.waitForSync()));
    for (let i = 0; i < this.queue.workers; i++) this.workers.push(this.work());
  }

  private async work(): Promise<void> {
    const { name, reconciler, metrics } = this.options;
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      const [namespace = "", objName = ""] = key.split("/");
      const reconcileID = randomUUID();
      const log = this.options.log.with({
        controller: name,
        kind: this.options.kind.kind,
        namespace,
        name: objName,
        reconcileID,
      });
      const started = performance.now();
      let outcome = "success";
      try {
        const cached = this.informer.get(objName, namespace || undefined);
        const result = await reconciler.reconcile({ namespace, name: objName }, { log, reconcileID, cached });
        if (result?.backoff) {
          outcome = "error";
          this.retryWithBackoff(key);
        } else {
          this.queue.forget(key);
          if (result?.requeueAfterMs)
            this.queue.addAfter(key, withJitter(result.requeueAfterMs, this.options.jitterPct));
        }
      } catch (err) {
        outcome = "error";
        log.error("Reconciler error", { error: (err as Error).message });
        this.retryWithBackoff(key);
      } finally {
        const seconds = (performance.now() - started) / 1000;
        metrics?.reconcileDuration.observe({ kind: this.options.kind.kind, name: objName, namespace }, seconds);
        metrics?.reconcileTotal.inc({ controller: name, result: outcome });
        metrics?.workDuration.observe({ name }, seconds);
        this.queue.done(key);
        metrics?.queueDepth.set({ name }, this.queue.depth);
      }
    }
  }

  private retryWithBackoff(key: string): void {
    this.queue.addRateLimited(key);
    this.options.metrics?.queueRetries.inc({ name: this.options.name });
  }

  /** Stops taking work and waits for reconciles in flight. */
  async stop(): Promise<void> {
    await this.queue.shutDown();
    await Promise.all(this.workers);
    await Promise.all([this.informer, ...this.watched, ...this.attached].map((i) => i.stop()));
  }
}
