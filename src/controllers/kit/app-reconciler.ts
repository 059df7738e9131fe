// What every app reconciler (Kustomization, HelmRelease) does before its attempt, as Flux's do: read
// the object (gone: nothing to do), finalize a deleted one that still has Flux's finalizer, add the
// finalizer, and leave a suspended one alone. The kind supplies its path, finalization and attempt.
import type { KubeObject } from "../../api/meta/object.js";
import { FLUX_FINALIZER } from "../../api/meta/annotations.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ReconcileContext, Request, Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { SourceFetcher } from "../../sources/consumer.js";
import { ObjectReconciler } from "./object-reconciler.js";
import { ReconciledObjects } from "./objects.js";

/** Flux's --requeue-dependency default. */
const REQUEUE_DEPENDENCY_MS = 30_000;

export abstract class AppReconciler<
  T extends KubeObject & { spec: { suspend?: boolean } },
> extends ObjectReconciler<T> {
  constructor(
    protected readonly cluster: Cluster,
    protected readonly sources: SourceFetcher,
    protected readonly events: EventRecorder,
    private readonly requeueDependencyMs?: number,
  ) {
    super(new ReconciledObjects(cluster), events);
  }

  /** How long to wait for another object (a dependency, a source's artifact): Flux's --requeue-dependency. */
  protected get waitMs(): number {
    return this.requeueDependencyMs ?? REQUEUE_DEPENDENCY_MS;
  }

  /** The object's API path. */
  protected abstract pathOf(namespace: string, name: string): string;

  /** A deleted object that still has Flux's finalizer. */
  protected abstract finalize(found: T, path: string, ctx: ReconcileContext): Promise<Result | void>;

  /** One attempt on a live, not suspended object with Flux's finalizer. */
  protected abstract reconcileLive(obj: T, path: string, ctx: ReconcileContext): Promise<Result>;

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const path = this.pathOf(req.namespace, req.name);
    const found = await this.objects.read(path, ctx.cached);
    if (!found) return;
    if (found.metadata.deletionTimestamp) {
      if (!found.metadata.finalizers?.includes(FLUX_FINALIZER)) return;
      return this.finalize(found, path, ctx);
    }
    const obj = await this.objects.addFinalizer(found, path);
    if (obj.spec.suspend) return this.finisher.suspended(obj, path, ctx);
    return this.reconcileLive(obj, path, ctx);
  }
}
