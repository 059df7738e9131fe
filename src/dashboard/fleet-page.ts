// The fleet page's data: every cluster with its health, version and counts of apps ready / failing /
// suspended, failing first, each with its apps (the grouping `flotilla status` uses; a ResourceSet is an
// app of each cluster it targets); then the fleet parents, the ResourceSets and the Flux instances. Built from the cache alone: no request per page view. Only fields meant for display — never
// a spec's values, never a Secret's.
import type { FleetCluster } from "../api/fleet/cluster.js";
import type { FleetStatus } from "../api/fleet/fleet-kustomization.js";
import type { Condition } from "../api/meta/conditions.js";
import type { KubeObject } from "../api/meta/object.js";
import { getCondition } from "../runtime/conditions.js";
import { type App, type AppRow, type ClusterGroup, fleetView } from "../fleet/status/fleet-view.js";
import type { FleetCache } from "../fleet/status/fleet-cache.js";
import type { ResourceSet } from "../api/operator/resourceset.js";
import { type FluxSummary, fluxSummaries } from "./flux-page.js";
import { type ResourceSetRow, resourceSetApps, resourceSetRows } from "./resourcesets.js";

export interface ClusterCard extends ClusterGroup {
  counts: { total: number; ready: number; failing: number; suspended: number };
}

export interface FleetObjectRow {
  kind: string;
  namespace: string;
  name: string;
  ready: string;
  message: string;
  suspended: boolean;
  counts?: FleetStatus["counts"];
}

export interface FleetPage {
  clusters: ClusterCard[];
  fleetObjects: FleetObjectRow[];
  resourceSets: ResourceSetRow[];
  flux: FluxSummary[];
}

const countsOf = (apps: AppRow[]) => ({
  total: apps.length,
  ready: apps.filter((a) => a.ready === "True").length,
  failing: apps.filter((a) => a.ready !== "True" && !a.suspended).length,
  suspended: apps.filter((a) => a.suspended).length,
});

export function clusterCards(cache: Pick<FleetCache, "list">): ClusterCard[] {
  const clusters = cache.list<FleetCluster>("Cluster");
  const apps = [
    ...cache.list<App>("Kustomization"),
    ...cache.list<App>("HelmRelease"),
    ...resourceSetApps(cache.list<ResourceSet>("ResourceSet"), clusters),
  ];
  return fleetView(clusters, apps).map((g) => ({ ...g, counts: countsOf(g.apps) }));
}

export function fleetPage(cache: Pick<FleetCache, "list">): FleetPage {
  type Parent = KubeObject & { spec: { suspend?: boolean }; status?: FleetStatus & { conditions?: Condition[] } };
  const parents = [...cache.list<Parent>("FleetKustomization"), ...cache.list<Parent>("FleetHelmRelease")];
  const fleetObjects = parents
    .map((p) => {
      const ready = getCondition(p.status?.conditions, "Ready");
      return {
        kind: p.kind,
        namespace: p.metadata.namespace ?? "",
        name: p.metadata.name,
        ready: ready?.status ?? "Unknown",
        message: ready?.message ?? "",
        suspended: p.spec.suspend === true,
        ...(p.status?.counts ? { counts: p.status.counts } : {}),
      };
    })
    .sort((a, b) => Number(b.ready !== "True") - Number(a.ready !== "True") || a.name.localeCompare(b.name));
  return {
    clusters: clusterCards(cache),
    fleetObjects,
    resourceSets: resourceSetRows(cache.list<ResourceSet>("ResourceSet"), cache.list<FleetCluster>("Cluster")),
    flux: fluxSummaries(cache),
  };
}
