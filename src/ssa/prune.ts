// Pruning: deletes what the previous inventory had and the new one does not, in reverse apply order,
// but only objects that still carry our owner labels and do not opt out. Objects that fail to delete
// stay in the inventory so the next reconcile tries again (Flux drops them).
import type { Cluster } from "../kube/cluster.js";
import { NotFoundError } from "../kube/errors.js";
import { objectId } from "../kube/object.js";
import { type ChangeSetEntry, entryFor } from "./changeset.js";
import { refFromEntry, staleEntries } from "./inventory.js";
import type { Inventory, InventoryEntry } from "../api/meta/inventory.js";
import { isOwnedBy, type Owner, pruneDisabled, reconcileDisabled } from "./metadata.js";
import { ResourceManagerError } from "./errors.js";
import { sortForDelete } from "./sort.js";

export interface PruneResult {
  changeSet: ChangeSetEntry[];
  /** Stale entries that could not be deleted: keep them in the new inventory. */
  failed: InventoryEntry[];
  /** `<id> delete failed: ...` per failure. */
  errors: string[];
}

export interface PruneOptions {
  owner: Owner;
  /**
   * An empty new set would delete everything the old inventory lists. That is refused unless the
   * caller says the set is empty on purpose — a broken render or source must never wipe a cluster.
   */
  allowEmptySet?: boolean;
  /** false: kustomize-controller's prune/reconcile annotations keep nothing (the Flux Operator's pruning). */
  kustomizeAnnotations?: boolean;
}

export async function pruneStale(
  cluster: Cluster,
  previous: Inventory | undefined,
  next: Inventory,
  options: PruneOptions,
): Promise<PruneResult> {
  const stale = staleEntries(previous, next);
  if (stale.length && next.entries.length === 0 && !options.allowEmptySet) {
    throw new ResourceManagerError(
      `refusing to prune all ${stale.length} objects: the new set is empty; if that is intended, remove the objects explicitly or allow an empty set`,
    );
  }
  const byRef = new Map(stale.map((e) => [refFromEntry(e), e] as const));
  const result: PruneResult = { changeSet: [], failed: [], errors: [] };
  for (const ref of sortForDelete([...byRef.keys()])) {
    const entry = byRef.get(ref)!;
    try {
      const live = await cluster.get(ref);
      if (!live) {
        result.changeSet.push(entryFor(ref, "deleted"));
        continue;
      }
      const kept = options.kustomizeAnnotations !== false && (pruneDisabled(live) || reconcileDisabled(live));
      if (!isOwnedBy(live, options.owner) || kept) {
        result.changeSet.push(entryFor(ref, "skipped"));
        continue;
      }
      await cluster.delete(ref, "Background");
      result.changeSet.push(entryFor(ref, "deleted"));
    } catch (err) {
      if (err instanceof NotFoundError) {
        result.changeSet.push(entryFor(ref, "deleted"));
        continue;
      }
      result.changeSet.push(entryFor(ref, "unknown"));
      result.failed.push(entry);
      result.errors.push(`${objectId(ref)} delete failed: ${(err as Error).message}`);
    }
  }
  return result;
}
