// What happens when an owner's gathered changes are due (decision 0026): the owner's own checks,
// then its reconcile is queued — or not. Our own writes and deletes are dropped (the exact record of
// kube/recent-writes.ts: prunes, force-recreates, re-applies), then whatever its inventory does not
// name. A deletion is judged against the owner as the API server has it now, not the informer's copy:
// helm removes objects in its own process (unrecorded), and the informer may not hold the status
// that says so yet. When the debounce is backing off (another writer keeps changing what the owner
// applies), the first such reconcile says so once, naming the object and the competing manager.
import type { Inventory } from "../../api/meta/inventory.js";
import type { KubeObject } from "../../api/meta/object.js";
import { recentWrites as defaultRecentWrites, type RecentWrites } from "../../kube/recent-writes.js";
import type { Logger } from "../../runtime/logger.js";
import type { Change } from "./kind-watch.js";

export type DriftChange = Change & { cluster: string };
export type InventoryOwner = KubeObject & { status?: { inventory?: Inventory } };

export interface DueDeps<O extends InventoryOwner> {
  log: Logger;
  /** The debounce's first delay: a longer one is a backoff. */
  baseDelayMs: number;
  /** The owner as the informer holds it. */
  cached(key: string): O | undefined;
  /** The owner read from the API server (undefined: gone); on failure, the cached copy. */
  fresh(key: string, cached: O): Promise<O | undefined>;
  /** Its reconcile would not put drift back now. */
  idle(owner: O): boolean;
  /** The cluster the owner's watches are on. */
  clusterOf(key: string): string | undefined;
  enqueue(key: string): void;
  stopped(): boolean;
  recentWrites?: RecentWrites;
}

export type Due = (key: string, changes: DriftChange[], overflow: boolean, delayMs: number) => Promise<boolean>;

/** The debounce's `due`: whether it queued the owner. Never rejects: an error is logged. */
export function ownerDue<O extends InventoryOwner>(deps: DueDeps<O>): Due & { forget(key: string): void } {
  const writes = deps.recentWrites ?? defaultRecentWrites;
  /** Owners whose backoff was logged, until it starts over. */
  const warned = new Set<string>();
  const gone = (owner: O | undefined): owner is undefined => deps.stopped() || !owner || deps.idle(owner);

  const due = async (key: string, changes: DriftChange[], overflow: boolean, delayMs: number) => {
    try {
      let owner = deps.cached(key);
      if (gone(owner)) return false;
      const cluster = deps.clusterOf(key);
      let drift = changes.filter(
        (c) =>
          c.cluster === cluster &&
          !(c.type === "MODIFIED" ? writes.has(c.uid, c.resourceVersion) : writes.deleted(c.uid, c.ref)),
      );
      if (drift.some((c) => c.type === "DELETED")) {
        owner = await deps.fresh(key, owner);
        if (gone(owner)) return false;
      }
      const inventory = new Set((owner.status?.inventory?.entries ?? []).map((e) => e.id));
      drift = drift.filter((c) => inventory.has(c.id));
      if (!drift.length && !overflow) return false;

      const fields = { namespace: owner.metadata.namespace, name: owner.metadata.name };
      const backingOff = delayMs > deps.baseDelayMs;
      if (!backingOff) warned.delete(key);
      else if (!warned.has(key)) {
        warned.add(key);
        const edit = drift.find((c) => c.manager) ?? drift[0];
        deps.log.info("drift: another writer keeps changing what this owner applies; backing off", {
          ...fields,
          object: edit?.id,
          manager: edit?.manager ?? "unknown",
          delay: `${delayMs / 1000}s`,
        });
      }
      deps.log.info("drift: reconciling now", {
        ...fields,
        changes: drift.slice(0, 5).map((c) => `${c.id} ${c.why}`),
        ...(drift.length > 5 ? { more: drift.length - 5 } : {}),
        ...(backingOff ? { delay: `${delayMs / 1000}s` } : {}),
      });
      deps.enqueue(key);
      return true;
    } catch (err) {
      deps.log.error("drift: judging changes failed", { owner: key, error: String(err) });
      return false;
    }
  };
  return Object.assign(due, { forget: (key: string) => void warned.delete(key) });
}

/** Reads an owner fresh through `get`, falling back to the cached copy (logged) when that fails. */
export function freshOwner<O extends KubeObject>(
  get: (key: string) => Promise<KubeObject | undefined>,
  log: Logger,
): (key: string, cached: O) => Promise<O | undefined> {
  return async (key, cached) => {
    try {
      return (await get(key)) as O | undefined;
    } catch (err) {
      log.debug("drift: owner not read, judging from the cache", { owner: key, error: (err as Error).message });
      return cached;
    }
  };
}
