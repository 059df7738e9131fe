// Applying a rendered ResourceSet to where it goes: its own cluster (the operator's behaviour, one
// inventory in status.inventory) or each selected fleet Cluster (decision 0048, one inventory per Cluster in
// status.clusterInventories, with the render it holds). A selected Cluster its rollout stage holds back is
// left as it is (decision 0053). A Cluster that stops being a target keeps what it holds through the grace
// period, then is forgotten (Orphan) or pruned (Prune) — leaving-clusters.ts; a Cluster object that is gone
// is forgotten when pruned (its plane cannot be reached any more). One Cluster failing does not stop the
// others. Each target gets its objects step after step (apply-steps.ts, decision 0052).
import type { FleetCluster } from "../../api/fleet/cluster.js";
import { pathOf } from "../../api/paths.js";
import { gvkOf, SERVED_KINDS } from "../../api/kinds.js";
import type { Inventory } from "../../api/meta/inventory.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { ClusterInventory, ResourceSet } from "../../api/operator/resourceset.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import { type ChangeSetEntry, formatChangeSet, pruneStale } from "../../ssa/index.js";
import { KubeconfigSecretNotFound } from "../kit/target-cluster.js";
import { type AppliedSteps, applySteps, ownerOf, StepFailure, type StepProgress } from "./apply-steps.js";
import { clusterTarget } from "./cluster-targets.js";
import type { RemovalSettings } from "./fleet-annotations.js";
import { type LeavingCluster, settleLeaving } from "./leaving-clusters.js";
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
  /** Clusters no longer targeted, kept through their grace period. */
  leaving: LeavingCluster[];
  /** Look again then (a grace period ends). */
  recheckMs?: number;
}

/** Which Clusters get the render now, and what becomes of those that left. */
export interface TargetChoice {
  /** The render's revision, recorded for each Cluster it is applied to. */
  revision: string;
  /** The selected Clusters applied now (the others keep what they hold); undefined: every one. */
  apply?: Set<string>;
  removal: RemovalSettings;
  now: Date;
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
  choice: TargetChoice,
): Promise<AppliedResourceSet> {
  const out: AppliedResourceSet = {
    targets: [],
    inventory: EMPTY,
    externalChecksumRefs: [],
    failures: [],
    leaving: [],
  };
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
      const held = before.find((e) => e.cluster === c.metadata.name);
      const previous = held?.inventory;
      const { leftAt: _returned, ...entry } = held ?? { cluster: c.metadata.name, inventory: EMPTY };
      if (choice.apply && !choice.apply.has(c.metadata.name)) {
        // Its rollout stage holds it: what it has stays, neither applied nor pruned.
        if (held) out.clusterInventories.push(entry);
        continue;
      }
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
        out.clusterInventories.push({ cluster: c.metadata.name, inventory: one.inventory, revision: choice.revision });
        out.externalChecksumRefs.push(...one.refs);
      } catch (err) {
        const message = (err as Error).message;
        out.failures.push(`Cluster ${c.metadata.namespace}/${c.metadata.name}: ${message}`);
        const kept = (err instanceof StepFailure ? err.inventory : previous) ?? EMPTY;
        out.clusterInventories.push({ ...entry, inventory: kept, revision: choice.revision, failure: message });
      }
    }
  }
  const kept = new Set(rendered.targets.map((t) => t.cluster?.metadata.name));
  const gone = before.filter((e) => !kept.has(e.cluster));
  if (gone.length) {
    const present = new Set(
      (await ctx.local.list(gvkOf(SERVED_KINDS.Cluster), r.metadata.namespace!)).map((c) => c.metadata.name),
    );
    const settled = await settleLeaving(
      gone,
      choice.removal,
      choice.now,
      (name) => present.has(name),
      async (entry) => void (await pruneCluster(ctx, r, entry)),
      r.metadata.namespace!,
    );
    (out.clusterInventories ??= []).push(...settled.kept);
    out.failures.push(...settled.failures);
    out.leaving = settled.leaving;
    if (settled.recheckMs !== undefined) out.recheckMs = settled.recheckMs;
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
