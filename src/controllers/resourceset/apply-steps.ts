// One target's apply, step after step, as the operator's ResourceSetReconciler.apply does it (decision
// 0052): copyFrom/convertKubeConfigFrom/checksumFrom over every object first; then each step applied
// and, before the next starts, health-checked within its own timeout (else reconcileTimeout); stale
// objects pruned only once every step is in; the final step's health check is the caller's (spec.wait),
// after its event. A steps-less ResourceSet is one anonymous step and its messages stay as they were.
// A step that fails leaves the union of the old inventory and what was applied so far, so nothing
// applied is ever orphaned and nothing a later step owns is forgotten.
import type { Inventory } from "../../api/meta/inventory.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { ResourceSet } from "../../api/operator/resourceset.js";
import type { Cluster } from "../../kube/cluster.js";
import {
  type ChangeSetEntry,
  hasChanged,
  inventoryFromChangeSet,
  type Owner,
  pruneStale,
  ResourceManager,
  ResourceManagerError,
  waitForSet,
} from "../../ssa/index.js";
import { parseDuration } from "../../util/duration.js";
import { FlotillaError } from "../../util/errors.js";
import { type BuiltStep, flattenSteps } from "./build.js";
import { computeChecksums } from "./checksum-from.js";
import { convertKubeConfigResources, copyResources } from "./copy-from.js";
import { isForced, timeoutOf } from "./status.js";

export const RESOURCESET_FIELD_MANAGER = "flux-operator";
export const ownerOf = (r: ResourceSet): Owner => ({
  group: "resourceset.fluxcd.controlplane.io",
  name: r.metadata.name,
  namespace: r.metadata.namespace!,
});

/** A named step failed; `inventory` is what the target holds now (old ∪ applied so far). */
export class StepFailure extends FlotillaError {
  override name = "StepFailure";
  constructor(
    message: string,
    readonly inventory: Inventory,
  ) {
    super(message);
  }
}

/** Called after a non-final step is applied, before its health check: progress and the step's event. */
export type StepProgress = (step: BuiltStep, index: number, total: number, changed: ChangeSetEntry[]) => Promise<void>;

export interface AppliedSteps {
  inventory: Inventory;
  /** Every object as applied (owner-labelled, normalised): the digest's input. */
  prepared: KubeObject[];
  /** The final step's objects and timeout, for spec.wait. */
  final: { name?: string; prepared: KubeObject[]; timeoutMs: number };
  /** The final step's changes and the pruned objects (the ApplySucceeded event). */
  changed: ChangeSetEntry[];
  refs: string[];
}

export const stepTimeoutMs = (r: ResourceSet, step: BuiltStep) =>
  step.timeout ? parseDuration(step.timeout) : timeoutOf(r);

function union(previous: Inventory | undefined, applied: ChangeSetEntry[]): Inventory {
  const now = inventoryFromChangeSet(applied).entries;
  const ids = new Set(now.map((e) => e.id));
  return { entries: [...now, ...(previous?.entries ?? []).filter((e) => !ids.has(e.id))] };
}

export async function applySteps(
  r: ResourceSet,
  target: Cluster,
  built: BuiltStep[],
  previous: Inventory | undefined,
  progress: StepProgress,
): Promise<AppliedSteps> {
  // No step (providers exported nothing): the anonymous empty step, so what was applied is collected.
  const steps = built.length ? built : [{ objects: [] }];
  const all = flattenSteps(steps);
  // copyFrom, convertKubeConfigFrom and checksumFrom read their sources where the objects go.
  await copyResources(target, all);
  await convertKubeConfigResources(target, all);
  const refs = await computeChecksums(target, all);
  const manager = new ResourceManager(target, {
    fieldManager: RESOURCESET_FIELD_MANAGER,
    owner: ownerOf(r),
    force: isForced(r),
    previousInventory: previous ?? { entries: [] },
  });
  const applied: ChangeSetEntry[] = [];
  let finalChanged: ChangeSetEntry[] = [];
  for (const [i, step] of steps.entries()) {
    let changeSet: ChangeSetEntry[];
    try {
      changeSet = await manager.apply(step.objects);
    } catch (err) {
      if (step.name === undefined) throw err;
      if (err instanceof ResourceManagerError) applied.push(...err.changeSet);
      throw new StepFailure(`step "${step.name}" apply failed: ${(err as Error).message}`, union(previous, applied));
    }
    applied.push(...changeSet);
    if (i === steps.length - 1) {
      finalChanged = changeSet.filter(hasChanged);
      break;
    }
    await progress(step, i, steps.length, changeSet.filter(hasChanged));
    if (changeSet.length === 0) continue;
    try {
      await waitForSet(target, manager.prepare(step.objects), {
        timeoutMs: stepTimeoutMs(r, step),
        intervalMs: 1000,
        failFast: true,
      });
    } catch (err) {
      throw new StepFailure(
        `step "${step.name}" health check failed: ${(err as Error).message}`,
        union(previous, applied),
      );
    }
  }
  const inventory = inventoryFromChangeSet(applied);
  const pruned = await pruneStale(target, previous, inventory, { owner: ownerOf(r), allowEmptySet: true });
  inventory.entries.push(...pruned.failed);
  if (pruned.errors.length) throw new Error(pruned.errors.join("; "));
  const last = steps[steps.length - 1]!;
  return {
    inventory,
    prepared: manager.prepare(all),
    final: { name: last.name, prepared: manager.prepare(last.objects), timeoutMs: stepTimeoutMs(r, last) },
    changed: [...finalChanged, ...pruned.changeSet.filter(hasChanged)],
    refs,
  };
}
