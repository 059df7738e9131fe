// A child's name (<parent>-<cluster>) can be taken by an object the fleet object did not make: a
// Kustomization or HelmRelease written by hand, or another fleet object's child whose names join the same
// way (app "a-b" on cluster "c", app "a" on cluster "b-c"). The fleet object never adopts, overwrites or
// removes it — a forced apply would take its spec over and a later removal would delete it. Only an object
// it controls (an owner reference to its uid, which labels alone cannot forge) is its child; a taken name
// is reported on that cluster's row and left alone (decision 0031).
import type { KubeObject } from "../../api/meta/object.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import type { ChildKind, FleetParent } from "../children/child-kind.js";
import { childName, type Row } from "../children/children.js";

export const controlledBy = (parent: FleetParent, obj: KubeObject): boolean =>
  !!parent.metadata.uid &&
  !!obj.metadata.ownerReferences?.some((r) => r.controller === true && r.uid === parent.metadata.uid);

/** The row reporting that the cluster's child name is taken by an object this parent does not control, if it is. */
export async function takenName<P extends FleetParent>(
  mgmt: Cluster,
  kind: ChildKind<P>,
  parent: P,
  cluster: string,
): Promise<Row | undefined> {
  const name = childName(parent, cluster);
  const ns = parent.metadata.namespace;
  let found: KubeObject;
  try {
    found = await mgmt.client.get<KubeObject>(pathOf(kind.child, ns, name));
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
  if (controlledBy(parent, found)) return undefined;
  const owner = found.metadata.ownerReferences?.find((r) => r.controller);
  const by = owner
    ? `controlled by ${owner.kind} ${owner.name}`
    : `not made by ${kind.parent.kind} ${parent.metadata.name}`;
  return {
    cluster,
    child: name,
    ready: "False",
    message: `${kind.child.kind} ${ns}/${name} already exists, ${by}: left alone, not adopted; rename or delete it to give cluster ${cluster} its child`,
    state: "failing",
  };
}
