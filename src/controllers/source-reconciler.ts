// What every source reconciler (GitRepository, HelmRepository, HelmChart) does before it fetches, as
// source-controller does: read the object (gone: nothing to do), remove a deleted one's artifacts and
// finalizer, add the finalizer, and leave a suspended one alone. The kind supplies the fetch and build.
import { SERVED_KINDS } from "../api/kinds.js";
import { pathOf } from "../api/paths.js";
import type { Cluster } from "../kube/cluster.js";
import type { ReconcileContext, Request, Result } from "../runtime/controller.js";
import type { EventRecorder } from "../runtime/events.js";
import type { Storage } from "../sources/artifact/storage.js";
import { ObjectReconciler } from "./kit/object-reconciler.js";
import { type Source, SourceObjects } from "./source-objects.js";

type SourceKind = "GitRepository" | "HelmRepository" | "HelmChart" | "OCIRepository";

export abstract class SourceReconciler<T extends Source & { spec: { suspend?: boolean } }> extends ObjectReconciler<
  T,
  SourceObjects<T>
> {
  /** The kind reconciled: its API path and its storage directory. */
  protected abstract readonly kind: SourceKind;

  constructor(
    protected readonly cluster: Cluster,
    readonly storage: Storage,
    events: EventRecorder,
  ) {
    super(new SourceObjects(cluster, storage), events);
  }

  /** One attempt on a live, not suspended source with Flux's finalizer; `dir` is its storage directory. */
  protected abstract reconcileLive(obj: T, path: string, dir: string, ctx: ReconcileContext): Promise<Result | void>;

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const path = pathOf(SERVED_KINDS[this.kind], req.namespace, req.name);
    const dir = this.storage.objectDir(this.kind, req.namespace, req.name);
    const obj = await this.objects.prepare(path, dir, ctx.cached);
    if (!obj) return;
    if (obj.spec.suspend) return this.finisher.suspended(obj, path, ctx);
    return this.reconcileLive(obj, path, dir, ctx);
  }
}
