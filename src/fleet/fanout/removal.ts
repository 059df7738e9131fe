// A cluster that stops matching loses its child once its grace period is over (leaving.ts) — and, through
// the child's own deletion, what it applied there (onClusterRemoval: Prune), or keeps it (Orphan, the
// default). A child that other fleet objects depend on
// (spec.dependsOn) goes only after their children on that cluster are gone: a tenant's namespace and role
// binding outlive the tenant's apps, which are pruned as the tenant. A child whose cluster is not Ready is
// held — suspended, applying and pruning nothing — and resumed by the next apply once the cluster is back.
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import type { ReconcileContext } from "../../runtime/controller.js";
import type { ChildKind, FleetChild, FleetParent } from "../children/child-kind.js";
import { CLUSTER_LABEL } from "../children/children.js";
import type { ClusterRemovalPolicy } from "../../api/fleet/fleet-kustomization.js";

/** Orphan unless Prune is asked for: the fleet cannot tell a mistake from an intent (decision 0031). */
export const removalPolicy = (parent: FleetParent): ClusterRemovalPolicy => parent.spec.onClusterRemoval ?? "Orphan";

/** Per cluster, the children there of the fleet objects that depend on `parent` (they go first). */
export async function dependentChildren<P extends FleetParent>(
  mgmt: Cluster,
  kind: ChildKind<P>,
  parent: P,
): Promise<Map<string, string[]>> {
  const ns = parent.metadata.namespace;
  const parents = await mgmt.client.listAll<P>(pathOf(kind.parent, ns));
  // What this parent itself depends on, transitively: in a cycle, those never hold its removal (a cycle
  // would otherwise hold every child in it for ever).
  const byName = new Map(parents.items.map((p) => [p.metadata.name, p]));
  const ancestors = new Set<string>([parent.metadata.name]);
  for (let todo = [parent]; todo.length;) {
    const next: P[] = [];
    for (const p of todo)
      for (const d of p.spec.dependsOn ?? [])
        if (!ancestors.has(d.name) && byName.has(d.name)) {
          ancestors.add(d.name);
          next.push(byName.get(d.name)!);
        }
    todo = next;
  }
  const dependents = parents.items
    .filter((p) => !ancestors.has(p.metadata.name) && p.spec.dependsOn?.some((d) => d.name === parent.metadata.name))
    .map((p) => p.metadata.name);
  const out = new Map<string, string[]>();
  if (!dependents.length) return out;
  const left = await mgmt.client.listAll<FleetChild>(pathOf(kind.child, ns), {
    labelSelector: `${kind.parentLabel} in (${dependents.join(",")})`,
  });
  for (const k of left.items) {
    const cluster = k.metadata.labels?.[CLUSTER_LABEL] ?? "";
    out.set(cluster, [...(out.get(cluster) ?? []), k.metadata.name]);
  }
  return out;
}

export async function removeChild<P extends FleetParent>(
  mgmt: Cluster,
  kind: ChildKind<P>,
  parent: P,
  child: FleetChild,
  cluster: string,
  ctx: ReconcileContext,
): Promise<void> {
  const path = pathOf(kind.child, child.metadata.namespace, child.metadata.name);
  try {
    if (removalPolicy(parent) === "Orphan") await mgmt.client.patch(path, "merge", kind.orphanPatch);
    // A child the fleet held is resumed first: deleted suspended, it would leave what it applied behind.
    else if (isHeld(child)) await mgmt.client.patch(path, "merge", { spec: { suspend: false } });
    await mgmt.client.delete(path);
    ctx.log.info("cluster no longer selected: child removed", {
      cluster,
      child: child.metadata.name,
      policy: removalPolicy(parent),
    });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}

/** Marks a child the fleet suspended because its cluster is not Ready (an operator's own suspend has no mark). */
export const HELD_ANNOTATION = "fleet.flotilla.dev/held";
const isHeld = (child: FleetChild) => child.metadata.annotations?.[HELD_ANNOTATION] === "true";

/** Suspends the child of a cluster that is not Ready (once, unless someone suspended it already). */
export async function holdChild<P extends FleetParent>(
  mgmt: Cluster,
  kind: ChildKind<P>,
  child: FleetChild,
): Promise<FleetChild> {
  if (child.spec.suspend) return child;
  const path = pathOf(kind.child, child.metadata.namespace, child.metadata.name);
  return mgmt.client.patch<FleetChild>(path, "merge", {
    metadata: { annotations: { [HELD_ANNOTATION]: "true" } },
    spec: { suspend: true },
  });
}

/** Resumes a child the fleet held, its cluster Ready again; any other child is returned as it is. */
export async function releaseChild<P extends FleetParent>(
  mgmt: Cluster,
  kind: ChildKind<P>,
  child: FleetChild | undefined,
): Promise<FleetChild | undefined> {
  if (!child || !isHeld(child)) return child;
  const path = pathOf(kind.child, child.metadata.namespace, child.metadata.name);
  return mgmt.client.patch<FleetChild>(path, "merge", {
    metadata: { annotations: { [HELD_ANNOTATION]: null } },
    spec: { suspend: false },
  });
}
