// What the fleet kinds share about clusters: which Clusters a selector picks, and the values each
// cluster gives its child (`${cluster_name}`, `${cluster_namespace}`, `${cluster_label_<key>}` with every
// character of the key that is not a letter or digit turned into `_`, then the Cluster's spec.variables).
import type { FleetCluster } from "../api/fleet/cluster.js";
import { getCondition, isTrue } from "../runtime/conditions.js";
import { FleetError } from "./errors.js";

// Which Clusters a selector picks is shared with the ResourceSet's rollout stages (decision 0053).
export { selects } from "../controllers/kit/cluster-selects.js";

export const labelVariable = (key: string) => `cluster_label_${key.replace(/[^A-Za-z0-9]/g, "_")}`;

export function clusterVariables(c: FleetCluster): Record<string, string> {
  const out: Record<string, string> = {
    cluster_name: c.metadata.name,
    cluster_namespace: c.metadata.namespace ?? "",
  };
  for (const [k, v] of Object.entries(c.metadata.labels ?? {})) out[labelVariable(k)] = v;
  return { ...out, ...(c.spec.variables ?? {}) };
}

export class UndefinedClusterVariable extends FleetError {
  override name = "UndefinedClusterVariable";
}

/** `${var}` in a template string (a path) replaced by the cluster's value; an unknown one is an error naming it. */
export function expandClusterVariables(text: string, vars: Record<string, string>, where: string): string {
  return text.replace(/\$\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => {
    const v = vars[name];
    if (v === undefined)
      throw new UndefinedClusterVariable(`${where} uses \${${name}}, which this cluster does not define`);
    return v;
  });
}

export const isReady = (c: FleetCluster) => isTrue(c.status?.conditions, "Ready");
export const conditionOf = (c: FleetCluster, type: string) => getCondition(c.status?.conditions, type);
/** The condition a Kamaji plane's Cluster carries (decision 0044): False while the plane is WriteLimited. */
export const WRITABLE = "Writable";
/** False while the kubeconfig's identity may not act cluster-wide (a namespace-scoped kubeconfig; decision 0044). */
export const CLUSTER_WIDE = "ClusterWide";
/** Writable unless told otherwise: only a Kamaji plane's Cluster carries the condition. */
export const isWritable = (c: FleetCluster) => conditionOf(c, WRITABLE)?.status !== "False";
