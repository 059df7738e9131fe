// Which fleet Clusters a ClusterSelector (matchLabels, matchExpressions, names) picks: the fleet kinds'
// selection and their rollout stages, and a ResourceSet's rollout stages (decision 0053).
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { ClusterSelector } from "../../api/fleet/selector.js";

export function selects(selector: ClusterSelector, c: FleetCluster): boolean {
  if (selector.names?.includes(c.metadata.name)) return true;
  const labels = c.metadata.labels ?? {};
  const hasLabelTerms = Object.keys(selector.matchLabels ?? {}).length || selector.matchExpressions?.length;
  // Names alone choose only those clusters; an empty selector chooses every cluster of the namespace.
  if (!hasLabelTerms) return !selector.names?.length;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const inValues = has && (e.values ?? []).includes(labels[e.key]!);
    const ok =
      e.operator === "In" ? inValues : e.operator === "NotIn" ? !inValues : e.operator === "Exists" ? has : !has;
    if (!ok) return false;
  }
  return true;
}
