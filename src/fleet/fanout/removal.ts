// A cluster that stops matching loses its child — and, through the child's own deletion, what it applied
// there (onClusterRemoval: Prune), or keeps it (Orphan). A child that other fleet objects depend on
// (spec.dependsOn) goes only after their children on that cluster are gone: a tenant's namespace and role
// binding outlive the tenant's apps, which are pruned as the tenant. A child whose cluster is not Ready is
// held — suspended, applying and pruning nothing — and resumed by the next apply once the cluster is back.
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import type { ReconcileContext } from "../../runtime/controller.js";
import type { ChildKind, FleetChild, FleetParent } from "./child-kind.js";
import { CLUSTER_LABEL } from "./children.js";

/** The children on `cluster` of the fleet objects that depend on `parent` (they go first). */
export async function dependentsOn<P extends FleetParent>(
  mgmt: Cluster,
  kind: ChildKind<P>,
  parent: P,
  cluster: string,
): Promise<string[]> {
  const ns = parent.metadata.namespace;
  const parents = await mgmt.client.listAll<P>(pathOf(kind.parent, ns));
  const dependents = parents.items.filter((p) => p.spec.dependsOn?.some((d) => d.name === parent.metadata.name));
  const out: string[] = [];
  for (const d of dependents) {
    const left = await mgmt.client.listAll<FleetChild>(pathOf(kind.child, ns), {
      labelSelector: `${kind.parentLabel}=${d.metadata.name},${CLUSTER_LABEL}=${cluster}`,
    });
    out.push(...left.items.map((k) => k.metadata.name));
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
    if (parent.spec.onClusterRemoval === "Orphan") await mgmt.client.patch(path, "merge", kind.orphanPatch);
    // A held child is resumed first: deleted suspended, it would leave what it applied behind.
    else if (child.spec.suspend) await mgmt.client.patch(path, "merge", { spec: { suspend: false } });
    await mgmt.client.delete(path);
    ctx.log.info("cluster no longer selected: child removed", {
      cluster,
      child: child.metadata.name,
      policy: parent.spec.onClusterRemoval ?? "Prune",
    });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}

/** Suspends the child of a cluster that is not Ready (once); returns it as it is now. */
export async function holdChild<P extends FleetParent>(
  mgmt: Cluster,
  kind: ChildKind<P>,
  child: FleetChild,
): Promise<FleetChild> {
  if (child.spec.suspend) return child;
  const path = pathOf(kind.child, child.metadata.namespace, child.metadata.name);
  return mgmt.client.patch<FleetChild>(path, "merge", { spec: { suspend: true } });
}
