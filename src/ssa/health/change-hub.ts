// Change notices for waits: one metadata-only watch per cluster credential, kind and namespace, shared by
// every wait on objects of that kind there, so a wait reads an object again when it changes instead of
// only on its poll schedule (decision 0055). A notice only says "read it again": the wait still judges
// the object by a fresh GET, so an event from before its apply can never end a wait. A watch that fails
// (RBAC without watch, an unreachable cluster) stops; the waits on it keep polling as before.
import type { Cluster, ObjectRef } from "../../kube/cluster.js";
import type { PoolEntry } from "../../kube/cluster-pool.js";
import { gvkOf } from "../../kube/object.js";
import { Watcher } from "../../kube/watch.js";

/** How long a watch outlives its last waiter: the next release in the namespace reuses it. */
export const WATCH_LINGER_MS = 30_000;
/** After a watch failed, how long waits on that kind and namespace poll only. */
const FAILED_BACKOFF_MS = 60_000;

type Notify = () => void;

/** A waiter's hold on the watch of one object's kind and namespace. */
export interface Subscription {
  /** Whether changes are being watched (false after the watch failed: poll instead). */
  live(): boolean;
  close(): void;
}

const NOT_WATCHED: Subscription = { live: () => false, close: () => {} };

interface KindWatch {
  watcher: Watcher;
  /** Subscribers by object name. */
  byName: Map<string, Set<Notify>>;
  stopTimer?: NodeJS.Timeout;
}

class ChangeHub {
  private readonly watches = new Map<string, KindWatch>();
  private readonly failedUntil = new Map<string, number>();
  private closed = false;

  constructor(private readonly cluster: Cluster) {}

  /** Its connection was closed (a rotated credential, idle, shutdown): no watch may hold it open. */
  close(): void {
    this.closed = true;
    for (const key of [...this.watches.keys()]) this.drop(key);
  }

  /** Calls `notify` whenever the object (or, after a relist, anything of its kind there) may have changed. */
  subscribe(ref: ObjectRef, notify: Notify): Subscription {
    const gvk = gvkOf(ref);
    const namespace = ref.metadata.namespace;
    const key = `${gvk.group}/${gvk.version}/${gvk.kind}/${namespace ?? ""}`;
    if (this.closed || (this.failedUntil.get(key) ?? 0) > Date.now()) return NOT_WATCHED;
    let w = this.watches.get(key);
    if (!w) {
      const byName = new Map<string, Set<Notify>>();
      const all = () => byName.forEach((set) => set.forEach((n) => n()));
      const watcher = new Watcher(
        this.cluster,
        { gvk, namespace, metadataOnly: true },
        {
          // The first list (and a relist after 410 Gone) may hold changes no event will repeat.
          onSync: all,
          onEvent: (e) => byName.get(e.object.metadata?.name ?? "")?.forEach((n) => n()),
          onError: () => {
            this.failedUntil.set(key, Date.now() + FAILED_BACKOFF_MS);
            this.drop(key);
            all(); // read again now: from here on they poll
          },
        },
      );
      w = { watcher, byName };
      this.watches.set(key, w);
      watcher.start();
    }
    clearTimeout(w.stopTimer);
    w.stopTimer = undefined;
    const name = ref.metadata.name;
    const set = w.byName.get(name) ?? new Set<Notify>();
    w.byName.set(name, set.add(notify));
    const kindWatch = w;
    return {
      live: () => this.watches.get(key) === kindWatch,
      close: () => {
        set.delete(notify);
        if (!set.size) kindWatch.byName.delete(name);
        if (kindWatch.byName.size || this.watches.get(key) !== kindWatch) return;
        kindWatch.stopTimer = setTimeout(() => this.drop(key), WATCH_LINGER_MS);
        kindWatch.stopTimer.unref();
      },
    };
  }

  private drop(key: string): void {
    const w = this.watches.get(key);
    if (!w) return;
    this.watches.delete(key);
    clearTimeout(w.stopTimer);
    void w.watcher.stop();
  }

  /** The watches running now, as `group/version/kind/namespace` (tests, benchmarks). */
  watching(): string[] {
    return [...this.watches.keys()];
  }
}

/** One hub per pooled connection and identity: a rotated credential gets its own watches. */
const hubs = new WeakMap<PoolEntry, Map<string, ChangeHub>>();

export function changeHub(cluster: Cluster): ChangeHub {
  const entry = cluster.client.connection;
  let byUser = hubs.get(entry);
  if (!byUser) hubs.set(entry, (byUser = new Map()));
  const who = JSON.stringify(cluster.client.impersonate ?? null);
  let hub = byUser.get(who);
  if (!hub) {
    const made = new ChangeHub(cluster);
    byUser.set(who, (hub = made));
    entry.onClose(() => made.close());
  }
  return hub;
}
