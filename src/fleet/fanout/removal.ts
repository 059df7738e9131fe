// A cluster that stops matching loses its child once its grace period is over (leaving.ts) — and, through
// the child's own deletion, what it applied there (onClusterRemoval: Prune), or keeps it (Orphan, the
// default). A child that other fleet objects depend on
// (spec.dependsOn, of either fleet kind) goes only after their children on that cluster are gone: a tenant's namespace and role
// binding outlive the tenant's apps, which are pruned as the tenant. A child whose cluster is not Ready is
// held — suspended, applying and pruning nothing — and resumed by the next apply once the cluster is back.
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import type { ReconcileContext } from "../../runtime/controller.js";
import type { ChildKind, FleetChild, FleetParent } from "../children/child-kind.js";
import { CLUSTER_LABEL } from "../children/children.js";
import { FLEET_KINDS, fleetKindOf } from "../children/fleet-dependencies.js";
import type { ClusterRemovalPolicy } from "../../api/fleet/fleet-kustomization.js";

/** Orphan unless Prune is asked for: the fleet cannot tell a mistake from an intent (decision 0031). */
export const removalPolicy = (parent: FleetParent): ClusterRemovalPolicy => parent.spec.onClusterRemoval ?? "Orphan";

/** Per cluster, the children there of the fleet objects (of any fleet kind) that depend on `parent` (they go first). */
export async function dependentChildren<P extends FleetParent>(
  mgmt: Cluster,
  kind: ChildKind<P>,
  parent: P,
): Promise<Map<string, string[]>> {
  const ns = parent.metadata.namespace!;
  const parents: { kind: (typeof FLEET_KINDS)[number]; p: FleetParent; id: string }[] = [];
  for (const k of FLEET_KINDS)
    for (const p of (await mgmt.client.listAll<FleetParent>(pathOf(k.parent, ns))).items)
      parents.push({ kind: k, p, id: `${k.parent.kind}/${p.metadata.name}` });
  const byId = new Map(parents.map((x) => [x.id, x]));
  // The fleet objects (same namespace) an entry of `x` names, as ids.
  const named = (x: (typeof parents)[number]) =>
    (x.p.spec.dependsOn ?? []).flatMap((d) => {
      const k = fleetKindOf(d, x.kind.parent);
      return k && (d.namespace ?? ns) === ns ? [`${k.parent.kind}/${d.name}`] : [];
    });
  // What this parent itself depends on, transitively: in a cycle, those never hold its removal (a cycle
  // would otherwise hold every child in it for ever).
  const self = `${kind.parent.kind}/${parent.metadata.name}`;
  const ancestors = new Set<string>([self]);
  for (let todo = [self]; todo.length;) {
    const next: string[] = [];
    for (const id of todo)
      for (const d of byId.has(id) ? named(byId.get(id)!) : [])
        if (!ancestors.has(d) && byId.has(d)) {
          ancestors.add(d);
          next.push(d);
        }
    todo = next;
  }
  const out = new Map<string, string[]>();
  for (const k of FLEET_KINDS) {
    const dependents = parents
      .filter((x) => x.kind === k && !ancestors.has(x.id) && named(x).includes(self))
      .map((x) => x.p.metadata.name);
    if (!dependents.length) continue;
    const left = await mgmt.client.listAll<FleetChild>(pathOf(k.child, ns), {
      labelSelector: `${k.parentLabel} in (${dependents.join(",")})`,
    });
    for (const c of left.items) {
      const cluster = c.metadata.labels?.[CLUSTER_LABEL] ?? "";
      out.set(cluster, [...(out.get(cluster) ?? []), c.metadata.name]);
    }
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
