// Applying a rendered ResourceSet to where it goes: its own cluster (the operator's behaviour, one
// inventory in status.inventory) or each selected fleet Cluster (decision 0048, one inventory per Cluster in
// status.clusterInventories). A target that stops being one — a Cluster leaving the selection, the
// annotation added or removed — has everything it holds pruned; a Cluster object that is gone is
// forgotten (its plane cannot be reached any more). One Cluster failing does not stop the others. Each
// target gets its objects step after step (apply-steps.ts, decision 0052).
import type { FleetCluster } from "../../api/fleet/cluster.js";
import { pathOf } from "../../api/paths.js";
import { SERVED_KINDS } from "../../api/kinds.js";
import type { Inventory } from "../../api/meta/inventory.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { ClusterInventory, ResourceSet } from "../../api/operator/resourceset.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import { type ChangeSetEntry, formatChangeSet, pruneStale } from "../../ssa/index.js";
import { KubeconfigSecretNotFound } from "../kit/target-cluster.js";
import { type AppliedSteps, applySteps, ownerOf, StepFailure, type StepProgress } from "./apply-steps.js";
import { clusterTarget } from "./cluster-targets.js";
import type { RenderedResourceSet } from "./render.js";

export { ownerOf, RESOURCESET_FIELD_MANAGER } from "./apply-steps.js";
const EMPTY: Inventory = { entries: [] };

export interface AppliedTarget {
  /** The Cluster's name; undefined for the ResourceSet's own cluster. */
  cluster?: string;
  target: Cluster;
  prepared: KubeObject[];
  /** The final step's objects and health-check timeout (spec.wait). */
  final: AppliedSteps["final"];
  changed: ChangeSetEntry[];
}

export interface AppliedResourceSet {
  targets: AppliedTarget[];
  inventory: Inventory;
  clusterInventories?: ClusterInventory[];
  externalChecksumRefs: string[];
  /** One line per failed target (`Cluster ns/name: ...`); in local mode the failure is thrown instead. */
  failures: string[];
}

export interface ApplyContext {
  local: Cluster;
  /** Where the ResourceSet's own objects go (its service account on its own cluster). */
  own: Cluster;
  defaultServiceAccount?: string;
}

/** Everything a Cluster target held, pruned; undefined when the Cluster (or its Secret) is gone. */
async function pruneCluster(
  ctx: ApplyContext,
  r: ResourceSet,
  entry: ClusterInventory,
): Promise<Inventory | undefined> {
  let c: FleetCluster;
  try {
    c = await ctx.local.client.get<FleetCluster>(pathOf(SERVED_KINDS.Cluster, r.metadata.namespace, entry.cluster));
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
  let target: Cluster;
  try {
    target = await clusterTarget(ctx.local, c, r, ctx.defaultServiceAccount);
  } catch (err) {
    if (err instanceof KubeconfigSecretNotFound) return undefined;
    throw err;
  }
  const pruned = await pruneStale(target, entry.inventory, EMPTY, { owner: ownerOf(r), allowEmptySet: true });
  if (pruned.errors.length) throw new Error(pruned.errors.join("; "));
  return EMPTY;
}

export async function applyTargets(
  ctx: ApplyContext,
  r: ResourceSet,
  rendered: RenderedResourceSet,
  progress: (cluster?: string) => StepProgress,
): Promise<AppliedResourceSet> {
  const out: AppliedResourceSet = { targets: [], inventory: EMPTY, externalChecksumRefs: [], failures: [] };
  const before = r.status?.clusterInventories ?? [];
  if (!rendered.clusterMode) {
    try {
      const one = await applySteps(r, ctx.own, rendered.targets[0]!.steps, r.status?.inventory, progress());
      out.targets.push({ target: ctx.own, prepared: one.prepared, final: one.final, changed: one.changed });
      out.inventory = one.inventory;
      out.externalChecksumRefs = one.refs;
    } catch (err) {
      // A named step failed: what was applied so far stays in the inventory.
      if (!(err instanceof StepFailure)) throw err;
      out.inventory = err.inventory;
      out.failures.push(err.message);
    }
  } else {
    // Targeting Clusters now: what the ResourceSet applied to its own cluster before goes.
    const pruned = await pruneStale(ctx.own, r.status?.inventory, EMPTY, { owner: ownerOf(r), allowEmptySet: true });
    out.inventory = { entries: pruned.failed };
    if (pruned.errors.length) out.failures.push(`its own cluster: ${pruned.errors.join("; ")}`);
    out.clusterInventories = [];
    for (const t of rendered.targets) {
      const c = t.cluster!;
      const previous = before.find((e) => e.cluster === c.metadata.name)?.inventory;
      try {
        const target = await clusterTarget(ctx.local, c, r, ctx.defaultServiceAccount);
        const one = await applySteps(r, target, t.steps, previous, progress(c.metadata.name));
        out.targets.push({
          cluster: c.metadata.name,
          target,
          prepared: one.prepared,
          final: one.final,
          changed: one.changed,
        });
        out.clusterInventories.push({ cluster: c.metadata.name, inventory: one.inventory });
        out.externalChecksumRefs.push(...one.refs);
      } catch (err) {
        out.failures.push(`Cluster ${c.metadata.namespace}/${c.metadata.name}: ${(err as Error).message}`);
        const kept = err instanceof StepFailure ? err.inventory : previous;
        if (kept) out.clusterInventories.push({ cluster: c.metadata.name, inventory: kept });
      }
    }
  }
  const kept = new Set(rendered.targets.map((t) => t.cluster?.metadata.name));
  for (const entry of before.filter((e) => !kept.has(e.cluster))) {
    try {
      await pruneCluster(ctx, r, entry);
    } catch (err) {
      out.failures.push(
        `Cluster ${r.metadata.namespace}/${entry.cluster} (no longer selected): ${(err as Error).message}`,
      );
      (out.clusterInventories ??= []).push(entry);
    }
  }
  if (!rendered.clusterMode && before.length && !out.clusterInventories) out.clusterInventories = [];
  return out;
}

/** On deletion: what every target holds, pruned (a gone Cluster is skipped). Errors as lines. */
export async function pruneAllTargets(ctx: ApplyContext, r: ResourceSet): Promise<string[]> {
  const errors: string[] = [];
  const own = await pruneStale(ctx.own, r.status?.inventory, EMPTY, { owner: ownerOf(r), allowEmptySet: true });
  errors.push(...own.errors);
  for (const entry of r.status?.clusterInventories ?? [])
    await pruneCluster(ctx, r, entry).catch((err: unknown) =>
      errors.push(`Cluster ${r.metadata.namespace}/${entry.cluster}: ${(err as Error).message}`),
    );
  return errors;
}

/** The ApplySucceeded event's text: the change set, per Cluster when targeting Clusters. */
export function changeMessage(applied: AppliedResourceSet, clusterMode: boolean, namespace: string): string {
  const parts = applied.targets
    .filter((t) => t.changed.length)
    .map((t) =>
      clusterMode ? `Cluster ${namespace}/${t.cluster}:\n${formatChangeSet(t.changed)}` : formatChangeSet(t.changed),
    );
  return parts.join("\n");
}
