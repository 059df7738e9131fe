// ResourceSets as the fleet page shows them, pure (from the cache, no request): one row each with Ready,
// reason, last applied revision, inputs and groups (from the last reconcile's history metadata) and its
// targets — the management cluster, or the fleet Clusters its fleet.flotilla.dev/target-clusters
// annotation selects (decision 0048) — and, for the cluster cards, one app per target, so each Cluster's
// card and page list the ResourceSets that target it. Nothing of its inputs' values is copied.
import type { FleetCluster } from "../api/fleet/cluster.js";
import { OPERATOR_ANNOTATIONS, type ResourceSet } from "../api/operator/resourceset.js";
import { getCondition } from "../runtime/conditions.js";
import { CLUSTER_LABEL } from "../fleet/children/children.js";
import { type App, MANAGEMENT } from "../fleet/status/fleet-view.js";
import { TARGET_CLUSTERS_ANNOTATION } from "../controllers/resourceset/cluster-targets.js";
import { labelMatcher } from "./label-selector.js";

export interface ResourceSetRow {
  kind: "ResourceSet";
  namespace: string;
  name: string;
  ready: string;
  reason: string;
  message: string;
  suspended: boolean;
  revision: string;
  /** Input sets rendered at the last successful reconcile (all groups together), when known. */
  inputs?: number;
  resources?: number;
  /** One group per target Cluster in cluster mode; one otherwise. */
  groups: number;
  /** The annotation's selector, when it has one ("" selects every Cluster). */
  selector?: string;
  /** `management`, or the selected Clusters as `<namespace>/<name>`. */
  targets: string[];
}

/** The operator's suspension: `fluxcd.controlplane.io/reconcile: disabled`. */
export const isSuspended = (r: ResourceSet) =>
  r.metadata.annotations?.[OPERATOR_ANNOTATIONS.reconcile]?.toLowerCase() === "disabled";

const count = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined);

/**
 * The Clusters a ResourceSet targets: those of its namespace its selector matches, else (a selector this
 * page cannot parse) those the controller last applied to; `management` without the annotation.
 */
export function targetsOf(r: ResourceSet, clusters: FleetCluster[]): string[] {
  const selector = r.metadata.annotations?.[TARGET_CLUSTERS_ANNOTATION];
  if (selector === undefined) return [MANAGEMENT];
  const ns = r.metadata.namespace ?? "";
  const matches = labelMatcher(selector.trim());
  const names = matches
    ? clusters
        .filter((c) => c.metadata.namespace === ns && matches(c.metadata.labels ?? {}))
        .map((c) => c.metadata.name)
    : (r.status?.clusterInventories ?? []).map((c) => c.cluster);
  return [...new Set(names)].sort().map((n) => `${ns}/${n}`);
}

export function resourceSetRow(r: ResourceSet, clusters: FleetCluster[]): ResourceSetRow {
  const ready = getCondition(r.status?.conditions, "Ready");
  const meta = r.status?.history?.[0]?.metadata ?? {};
  const selector = r.metadata.annotations?.[TARGET_CLUSTERS_ANNOTATION];
  const targets = targetsOf(r, clusters);
  const inputs = count(meta.inputs);
  const resources = count(meta.resources);
  return {
    kind: "ResourceSet",
    namespace: r.metadata.namespace ?? "",
    name: r.metadata.name,
    ready: ready?.status ?? "Unknown",
    reason: ready?.reason ?? "",
    message: ready?.message ?? "",
    suspended: isSuspended(r),
    revision: r.status?.lastAppliedRevision ?? "",
    ...(inputs !== undefined ? { inputs } : {}),
    ...(resources !== undefined ? { resources } : {}),
    groups: selector === undefined ? 1 : targets.length,
    ...(selector !== undefined ? { selector: selector.trim() } : {}),
    targets,
  };
}

/** Failing first, then by namespace and name. */
export function resourceSetRows(sets: ResourceSet[], clusters: FleetCluster[]): ResourceSetRow[] {
  return sets
    .map((r) => resourceSetRow(r, clusters))
    .sort(
      (a, b) =>
        Number(b.ready !== "True") - Number(a.ready !== "True") ||
        `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`),
    );
}

/**
 * One app per target, for the cluster cards: a management ResourceSet as it is, a cluster-mode one once per
 * selected Cluster, marked with that Cluster the way a fleet child is (so clusterKeyOf places it).
 */
export function resourceSetApps(sets: ResourceSet[], clusters: FleetCluster[]): App[] {
  return sets.flatMap((r) => {
    const app = {
      ...r,
      kind: "ResourceSet",
      spec: { suspend: isSuspended(r) },
      status: { conditions: r.status?.conditions, lastAppliedRevision: r.status?.lastAppliedRevision },
    } as App;
    if (r.metadata.annotations?.[TARGET_CLUSTERS_ANNOTATION] === undefined) return [app];
    return targetsOf(r, clusters).map((key) => ({
      ...app,
      metadata: { ...r.metadata, labels: { ...r.metadata.labels, [CLUSTER_LABEL]: key.split("/")[1]! } },
    }));
  });
}
