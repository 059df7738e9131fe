// How a reconciler reads the object it reconciles and writes it back. Reads come from the
// controller's informer (the object as of the event that queued it) unless the reconciler's own
// last write is newer (runtime/own-writes.ts); the finalizer is added and removed with optimistic
// concurrency; a status patch that would change nothing is not sent — an idle reconcile then costs
// the apiserver nothing, as with Flux's patch helper, which diffs before it writes.
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import { isNoopMergePatch } from "../../kube/merge-patch.js";
import type { KubeObject } from "../../api/meta/object.js";
import { OwnWrites } from "../../runtime/own-writes.js";
import { FLUX_FINALIZER } from "../../api/meta/annotations.js";

const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ""}/${o.metadata.name}`;

export class ReconciledObjects<T extends KubeObject> {
  private readonly writes = new OwnWrites<T>();

  constructor(private readonly cluster: Cluster) {}

  /** The object, or undefined when it is gone. */
  async read(path: string, cached?: KubeObject): Promise<T | undefined> {
    const key = cached ? keyOf(cached) : "";
    try {
      return this.writes.freshest(key, cached as T | undefined) ?? (await this.cluster.client.get<T>(path));
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      this.writes.forget(key);
      return undefined;
    }
  }

  /** The object with Flux's finalizer (added when missing). */
  async addFinalizer(obj: T, path: string): Promise<T> {
    const finalizers = obj.metadata.finalizers ?? [];
    if (finalizers.includes(FLUX_FINALIZER)) return obj;
    const patched = await this.cluster.client.patch<T>(path, "merge", {
      metadata: { finalizers: [...finalizers, FLUX_FINALIZER], resourceVersion: obj.metadata.resourceVersion },
    });
    return this.writes.record(keyOf(obj), patched);
  }

  /** Lets a deleted object go. */
  async removeFinalizer(obj: T, path: string): Promise<void> {
    this.writes.forget(keyOf(obj));
    const finalizers = obj.metadata.finalizers ?? [];
    if (!finalizers.includes(FLUX_FINALIZER)) return;
    await this.cluster.client.patch(path, "merge", {
      metadata: {
        finalizers: finalizers.filter((f) => f !== FLUX_FINALIZER),
        resourceVersion: obj.metadata.resourceVersion,
      },
    });
  }

  /** Merge-patches the status subresource unless the patch would change nothing. */
  async patchStatus(obj: T, path: string, status: Record<string, unknown>): Promise<void> {
    // Compared with our own last write when it is newer than `obj` (an earlier patch this reconcile).
    const current = this.writes.freshest(keyOf(obj), obj) ?? obj;
    if (isNoopMergePatch(current.status, status)) return;
    this.writes.record(keyOf(obj), await this.cluster.client.patch<T>(`${path}/status`, "merge", { status }));
  }
}
