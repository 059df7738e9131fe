// Read-your-writes over an informer cache. Reconcilers read the object from the informer (no GET
// per reconcile, as controller-runtime's cached client) but the informer may not yet have seen the
// reconciler's own last write — reading that stale copy could, for instance, prune from an old
// inventory. So each write's response is kept and the newer of the two (by resourceVersion, which
// this apiserver hands out from etcd's increasing revision) is used.
import type { KubeObject } from "../api/meta/object.js";
import { newestOf } from "../kube/resource-version.js";

export class OwnWrites<T extends KubeObject> {
  private readonly last = new Map<string, T>();

  record(key: string, written: T): T {
    this.last.set(key, written);
    return written;
  }

  forget(key: string): undefined {
    this.last.delete(key);
    return undefined;
  }

  /** The newer of the cached copy and our own last write; undefined when there is no cached copy. */
  freshest(key: string, cached: T | undefined): T | undefined {
    if (!cached) return undefined;
    const own = this.last.get(key);
    if (!own || own.metadata.uid !== cached.metadata.uid) return cached;
    const newer = newestOf([cached, own])!; // on a tie, the cache's copy
    // Once the cache has caught up there is nothing to remember.
    if (newer === cached) this.last.delete(key);
    return newer;
  }
}
