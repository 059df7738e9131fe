// How a source reconciler reads its object and writes its status. Reads come from the controller's
// informer (the object as of the event that queued it) unless the reconciler's own last write is
// newer (runtime/own-writes.ts); a status patch that would change nothing is not sent. An idle
// reconcile of an unchanged source then costs the apiserver no request at all, as with Flux.
import type { Cluster } from "../kube/cluster.js";
import { NotFoundError } from "../kube/errors.js";
import { isNoopMergePatch } from "../kube/merge-patch.js";
import type { KubeObject } from "../kube/object.js";
import { OwnWrites } from "../runtime/own-writes.js";
import type { Storage } from "../sources/artifact/storage.js";
import { SOURCE_FINALIZER } from "./source-status.js";

const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ""}/${o.metadata.name}`;

export class SourceObjects<T extends KubeObject> {
  private readonly writes = new OwnWrites<T>();

  constructor(
    private readonly cluster: Cluster,
    private readonly storage: Storage,
  ) {}

  /** The object to reconcile: deletion handled (artifacts removed, finalizer dropped), finalizer added. */
  async prepare(path: string, storageDir: string, cached?: KubeObject): Promise<T | undefined> {
    let obj: T;
    const key = cached ? keyOf(cached) : "";
    try {
      obj = this.writes.freshest(key, cached as T | undefined) ?? (await this.cluster.client.get<T>(path));
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
    const finalizers = obj.metadata.finalizers ?? [];
    if (obj.metadata.deletionTimestamp) {
      this.storage.removeAll(storageDir);
      this.writes.forget(keyOf(obj));
      if (finalizers.includes(SOURCE_FINALIZER)) {
        await this.cluster.client.patch(path, "merge", {
          metadata: {
            finalizers: finalizers.filter((f) => f !== SOURCE_FINALIZER),
            resourceVersion: obj.metadata.resourceVersion,
          },
        });
      }
      return undefined;
    }
    if (!finalizers.includes(SOURCE_FINALIZER)) {
      obj = this.writes.record(
        keyOf(obj),
        await this.cluster.client.patch<T>(path, "merge", {
          metadata: { finalizers: [...finalizers, SOURCE_FINALIZER], resourceVersion: obj.metadata.resourceVersion },
        }),
      );
    }
    return obj;
  }

  /** Merge-patches the status subresource unless the patch would change nothing. */
  async patchStatus(obj: T, path: string, status: Record<string, unknown>): Promise<void> {
    if (isNoopMergePatch(obj.status, status)) return;
    this.writes.record(keyOf(obj), await this.cluster.client.patch<T>(`${path}/status`, "merge", { status }));
  }
}
