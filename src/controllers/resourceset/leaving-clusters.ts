// A Cluster that leaves a ResourceSet's targets keeps what it was given for a grace period, said in
// status, before fleet.flotilla.dev/on-cluster-removal applies — the fleet kinds' behaviour (decision
// 0031) with the same defaults (Orphan, the controller's --cluster-removal-grace-period, 10m) and the same
// condition, ClusterRemovalPending (decision 0053). When it left is kept in its inventory entry
// (status.clusterInventories[].leftAt), so a controller restart does not restart the clock; a Cluster
// selected again takes its objects back as they are.
import type { ClusterRemovalPolicy } from "../../api/fleet/fleet-kustomization.js";
import type { Condition } from "../../api/meta/conditions.js";
import type { ClusterInventory } from "../../api/operator/resourceset.js";
import { removeCondition, setCondition } from "../../runtime/conditions.js";
import { ON_CLUSTER_REMOVAL_ANNOTATION, type RemovalSettings } from "./fleet-annotations.js";
import { TARGET_CLUSTERS_ANNOTATION } from "./cluster-targets.js";

export const REMOVAL_PENDING = "ClusterRemovalPending";

export interface LeavingCluster {
  cluster: string;
  why: string;
  releaseAt: Date;
}

const stamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

export interface Settled {
  /** Entries still held: in their grace period, or whose prune failed (retried next time). */
  kept: ClusterInventory[];
  leaving: LeavingCluster[];
  failures: string[];
  recheckMs?: number;
}

/**
 * The entries of Clusters no longer targeted: kept through the grace period, then dropped (Orphan: what
 * they hold keeps running there) or pruned (Prune). `exists` says whether the Cluster object is still there.
 */
export async function settleLeaving(
  entries: ClusterInventory[],
  removal: RemovalSettings,
  now: Date,
  exists: (cluster: string) => boolean,
  prune: (entry: ClusterInventory) => Promise<void>,
  namespace: string,
): Promise<Settled> {
  const out: Settled = { kept: [], leaving: [], failures: [] };
  for (const entry of entries) {
    const left = Date.parse(entry.leftAt ?? "");
    const since = Number.isNaN(left) ? new Date(Date.parse(stamp(now))) : new Date(left);
    const releaseAt = new Date(since.getTime() + removal.graceMs);
    if (releaseAt > now) {
      const why = exists(entry.cluster) ? `no longer matches ${TARGET_CLUSTERS_ANNOTATION}` : "was deleted";
      out.kept.push({ ...entry, leftAt: stamp(since) });
      out.leaving.push({ cluster: entry.cluster, why, releaseAt });
      const ms = Math.max(1_000, releaseAt.getTime() - now.getTime());
      out.recheckMs = Math.min(out.recheckMs ?? Infinity, ms);
      continue;
    }
    if (removal.policy === "Orphan") continue;
    try {
      await prune(entry);
    } catch (err) {
      out.failures.push(`Cluster ${namespace}/${entry.cluster} (no longer selected): ${(err as Error).message}`);
      out.kept.push(entry);
    }
  }
  return out;
}

/** The ClusterRemovalPending condition: which Clusters left, why, and when what they hold is released. */
export function removalCondition(
  conditions: Condition[],
  leaving: LeavingCluster[],
  policy: ClusterRemovalPolicy,
  generation: number | undefined,
): Condition[] {
  if (!leaving.length) return removeCondition(conditions, REMOVAL_PENDING);
  const then =
    policy === "Prune"
      ? `then what each was given is pruned there (${ON_CLUSTER_REMOVAL_ANNOTATION}: Prune)`
      : `then each is forgotten and what it was given is left running there (${ON_CLUSTER_REMOVAL_ANNOTATION}: Orphan)`;
  const each = leaving.map((l) => `cluster ${l.cluster} ${l.why}: its objects kept until ${stamp(l.releaseAt)}`);
  return setCondition(conditions, {
    type: REMOVAL_PENDING,
    status: "True",
    reason: "GracePeriod",
    message: `${each.join("; ")}; ${then}`,
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
  });
}
