// A source reconciler's object: read through ReconciledObjects; on deletion its artifacts are
// removed and the finalizer dropped; otherwise the finalizer is added.
import type { Cluster } from "../kube/cluster.js";
import type { KubeObject } from "../api/meta/object.js";
import type { Storage } from "../sources/artifact/storage.js";
import { ReconciledObjects } from "./reconciled-objects.js";

export class SourceObjects<T extends KubeObject> extends ReconciledObjects<T> {
  constructor(
    cluster: Cluster,
    private readonly storage: Storage,
  ) {
    super(cluster);
  }

  /** The object to reconcile, or undefined when it is gone or was just let go after deletion. */
  async prepare(path: string, storageDir: string, cached?: KubeObject): Promise<T | undefined> {
    const obj = await this.read(path, cached);
    if (!obj) return undefined;
    if (obj.metadata.deletionTimestamp) {
      this.storage.removeAll(storageDir);
      await this.removeFinalizer(obj, path);
      return undefined;
    }
    return this.addFinalizer(obj, path);
  }
}
