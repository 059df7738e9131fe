// A FluxInstance's ownership of what it applies (the operator's owner labels
// fluxcd.controlplane.io/{name,namespace}) and what deleting it does: its sync objects go, but — as the
// operator's uninstall removes Flux's finalizers first — the root Kustomization is orphaned first so
// what it applied stays in the cluster.
import { OPERATOR_GROUP, SERVED_KINDS } from "../../api/kinds.js";
import type { FluxInstance } from "../../api/operator/fluxinstance.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { type Owner, pruneStale } from "../../ssa/index.js";
import { ReconcileFailure } from "../kit/failure.js";
import { syncName } from "./sync-objects.js";

export const ownerOf = (fi: FluxInstance): Owner => ({
  group: OPERATOR_GROUP,
  name: fi.metadata.name,
  namespace: fi.metadata.namespace!,
});

export async function uninstall(cluster: Cluster, fi: FluxInstance): Promise<void> {
  if (!fi.status?.inventory?.entries.length) return;
  const ns = fi.metadata.namespace!;
  await cluster.client
    .patch(pathOf(SERVED_KINDS.Kustomization, ns, syncName(fi)), "merge", { spec: { deletionPolicy: "Orphan" } })
    .catch(() => undefined); // gone already
  const pruned = await pruneStale(
    cluster,
    fi.status.inventory,
    { entries: [] },
    { owner: ownerOf(fi), allowEmptySet: true, kustomizeAnnotations: false },
  );
  if (pruned.errors.length)
    throw new ReconcileFailure("ReconciliationFailed", `uninstall failed: ${pruned.errors.join("; ")}`);
}
