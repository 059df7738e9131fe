// Listing a kind flotilla serves, as the whole-fleet views need it: every object (of a namespace, or all),
// stamped with its kind and apiVersion (a list's items carry neither, and everything downstream keys on
// them), and none at all when the kind's CRD is not installed (the fleet kinds on a plain Flux cluster).
import { apiVersionOf, type ServedKind } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";

export async function listServed<T>(cluster: Cluster, kind: ServedKind, ns?: string): Promise<T[]> {
  try {
    const { items } = await cluster.client.listAll<T>(pathOf(kind, ns));
    return items.map((o) => ({ ...o, apiVersion: apiVersionOf(kind), kind: kind.kind }));
  } catch (err) {
    if (err instanceof NotFoundError) return [];
    throw err;
  }
}
