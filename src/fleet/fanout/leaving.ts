// A cluster that leaves a fleet object's selection keeps its child for a grace period, said in status,
// before spec.onClusterRemoval applies (decision 0031). A Cluster deleted by mistake, or a Kamaji plane
// whose label someone removed (discovery copies the plane's labels, forced), is still a running cluster:
// nothing is pruned from it on the spot. When the cluster left is recorded on the child (an annotation, so
// a controller restart does not restart the clock); a cluster selected again takes its child back as it was.
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { ClusterRemovalPolicy } from "../../api/fleet/fleet-kustomization.js";
import type { Condition } from "../../api/meta/conditions.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ReconcileContext } from "../../runtime/controller.js";
import { removeCondition, setCondition } from "../../runtime/conditions.js";
import { parseDuration } from "../../util/duration.js";
import type { ChildKind, FleetChild, FleetParent } from "../children/child-kind.js";
import { dependentChildren, removeChild } from "./removal.js";

export { removalPolicy } from "./removal.js";

export const LEFT_AT_ANNOTATION = "fleet.flotilla.dev/cluster-left-at";
export const REMOVAL_PENDING = "ClusterRemovalPending";
/** --cluster-removal-grace-period's default. */
export const DEFAULT_REMOVAL_GRACE_MS = 10 * 60_000;
/** How soon a child held for its dependents is looked at again. */
const DEPENDENTS_RECHECK_MS = 3_000;

export function gracePeriodMs(parent: FleetParent, defaultMs = DEFAULT_REMOVAL_GRACE_MS): number {
  const g = parent.spec.clusterRemovalGracePeriod;
  return g === undefined ? defaultMs : parseDuration(g);
}

export interface Leaving {
  cluster: string;
  child: string;
  why: string;
  releaseAt: Date;
  /** Past the grace period, the children on that cluster that depend on this one (they go first). */
  blockers?: string[];
}

const stamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/** When the child's cluster left the selection: recorded the first time it is seen gone. */
async function leftAt<P extends FleetParent>(mgmt: Cluster, kind: ChildKind<P>, child: FleetChild, now: Date) {
  const at = Date.parse(child.metadata.annotations?.[LEFT_AT_ANNOTATION] ?? "");
  if (!Number.isNaN(at)) return new Date(at);
  const since = stamp(now);
  const path = pathOf(kind.child, child.metadata.namespace, child.metadata.name);
  await mgmt.client.patch(path, "merge", { metadata: { annotations: { [LEFT_AT_ANNOTATION]: since } } });
  return new Date(Date.parse(since));
}

/** A child whose cluster is selected again loses the mark (the clock starts afresh if it leaves again). */
export async function returned<P extends FleetParent>(
  mgmt: Cluster,
  kind: ChildKind<P>,
  child: FleetChild | undefined,
): Promise<FleetChild | undefined> {
  if (!child?.metadata.annotations?.[LEFT_AT_ANNOTATION]) return child;
  const path = pathOf(kind.child, child.metadata.namespace, child.metadata.name);
  return mgmt.client.patch<FleetChild>(path, "merge", { metadata: { annotations: { [LEFT_AT_ANNOTATION]: null } } });
}

/**
 * The children of clusters no longer selected: kept through the grace period, then — after the children
 * depending on them there — removed as the policy says. Returns those still kept and when to look again.
 */
export async function settleLeaving<P extends FleetParent>(
  mgmt: Cluster,
  kind: ChildKind<P>,
  parent: P,
  children: Map<string, FleetChild>,
  namespaceClusters: FleetCluster[],
  defaultGraceMs: number,
  ctx: ReconcileContext,
): Promise<{ leaving: Leaving[]; kept: FleetChild[]; recheckMs?: number }> {
  const out = { leaving: [] as Leaving[], kept: [] as FleetChild[], recheckMs: undefined as number | undefined };
  if (!children.size) return out;
  const now = new Date();
  const graceMs = gracePeriodMs(parent, defaultGraceMs);
  const soon = (ms: number) => (out.recheckMs = Math.max(1_000, Math.min(out.recheckMs ?? Infinity, ms)));
  let dependents: Map<string, string[]> | undefined;
  for (const [cluster, child] of children) {
    const since = graceMs > 0 ? await leftAt(mgmt, kind, child, now) : now;
    const releaseAt = new Date(since.getTime() + graceMs);
    const why = namespaceClusters.some((c) => c.metadata.name === cluster)
      ? "no longer matches spec.clusterSelector"
      : "was deleted";
    const entry = { cluster, child: child.metadata.name, why, releaseAt };
    if (releaseAt > now) {
      ctx.log.info("cluster no longer selected: child kept through the grace period", {
        cluster,
        until: stamp(releaseAt),
      });
      out.leaving.push(entry);
      out.kept.push(child);
      soon(releaseAt.getTime() - now.getTime());
      continue;
    }
    dependents ??= await dependentChildren(mgmt, kind, parent);
    const blockers = dependents.get(cluster) ?? [];
    if (blockers.length) {
      // Removed after what depends on it there (e.g. a tenant's namespace and role binding after its apps).
      out.leaving.push({ ...entry, blockers });
      out.kept.push(child);
      soon(DEPENDENTS_RECHECK_MS);
      continue;
    }
    await removeChild(mgmt, kind, parent, child, cluster, ctx);
  }
  return out;
}

/** The ClusterRemovalPending condition: which clusters left, why, and when their children are released. */
export function removalCondition(
  conditions: Condition[],
  leaving: Leaving[],
  policy: ClusterRemovalPolicy,
  generation: number | undefined,
): Condition[] {
  if (!leaving.length) return removeCondition(conditions, REMOVAL_PENDING);
  const then =
    policy === "Prune"
      ? "then each is deleted with what it applied there (onClusterRemoval: Prune)"
      : "then each is deleted and what it applied is left running there (onClusterRemoval: Orphan)";
  const each = leaving.map((l) =>
    l.blockers
      ? `cluster ${l.cluster} ${l.why}: child ${l.child} kept until its dependents there are gone (${l.blockers.join(", ")})`
      : `cluster ${l.cluster} ${l.why}: child ${l.child} kept until ${stamp(l.releaseAt)}`,
  );
  return setCondition(conditions, {
    type: REMOVAL_PENDING,
    status: "True",
    reason: "GracePeriod",
    message: `${each.join("; ")}; ${then}`,
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
  });
}
