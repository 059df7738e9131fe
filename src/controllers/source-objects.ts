// A source reconciler's object: read through ReconciledObjects; on deletion its artifacts are
// removed and the finalizer dropped; otherwise the finalizer is added. Its last artifact counts only
// while storage still holds it intact.
import type { Cluster } from "../kube/cluster.js";
import type { KubeObject } from "../api/meta/object.js";
import type { Storage } from "../sources/artifact/storage.js";
import type { Artifact } from "../api/meta/artifact.js";
import { ReconciledObjects } from "./kit/objects.js";

export type Source = KubeObject & { status?: { artifact?: Artifact } };

export class SourceObjects<T extends Source> extends ReconciledObjects<T> {
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

  /** status.artifact when storage holds it with its digest, else undefined (it is built again). */
  storedArtifact(obj: T): Artifact | undefined {
    const artifact = obj.status?.artifact;
    return artifact && this.storage.exists(artifact) ? artifact : undefined;
  }
}
