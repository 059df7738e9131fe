// Everything a plan reads of the management cluster, read once: the sources, the apps, the fleet parents
// and the Clusters. A snapshot (snapshot.ts) holds the same, so an offline plan walks the same state.
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { FleetHelmRelease } from "../../api/fleet/fleet-helmrelease.js";
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import { apiVersionOf, SERVED_KINDS, type ServedKind } from "../../api/kinds.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import { pathOf } from "../../api/paths.js";
import type { HelmChart, HelmRepository } from "../../api/source/helm.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";

export interface ManagementState {
  gitRepositories: KubeObject[];
  kustomizations: Kustomization[];
  helmReleases: HelmRelease[];
  helmCharts: HelmChart[];
  /** Absent from snapshots written before plans fetched chart versions. */
  helmRepositories?: HelmRepository[];
  fleetKustomizations: FleetKustomization[];
  fleetHelmReleases: FleetHelmRelease[];
  clusters: FleetCluster[];
}

/** A kind whose CRD is not installed (the fleet kinds on a plain Flux cluster) has no objects. */
async function listAll<T>(cluster: Cluster, kind: ServedKind, ns?: string): Promise<T[]> {
  try {
    // A list's items carry no kind or apiVersion: stamp them, everything downstream keys on them.
    const { items } = await cluster.client.listAll<T>(pathOf(kind, ns));
    return items.map((o) => ({ ...o, apiVersion: apiVersionOf(kind), kind: kind.kind }));
  } catch (err) {
    if (err instanceof NotFoundError) return [];
    throw err;
  }
}

export async function readManagementState(cluster: Cluster, ns?: string): Promise<ManagementState> {
  const k = SERVED_KINDS;
  const [
    gitRepositories,
    kustomizations,
    helmReleases,
    helmCharts,
    fleetKustomizations,
    fleetHelmReleases,
    clusters,
    helmRepositories,
  ] = await Promise.all([
    listAll<KubeObject>(cluster, k.GitRepository, ns),
    listAll<Kustomization>(cluster, k.Kustomization, ns),
    listAll<HelmRelease>(cluster, k.HelmRelease, ns),
    listAll<HelmChart>(cluster, k.HelmChart, ns),
    listAll<FleetKustomization>(cluster, k.FleetKustomization, ns),
    listAll<FleetHelmRelease>(cluster, k.FleetHelmRelease, ns),
    listAll<FleetCluster>(cluster, k.Cluster, ns),
    listAll<HelmRepository>(cluster, k.HelmRepository, ns),
  ]);
  return {
    gitRepositories,
    kustomizations,
    helmReleases,
    helmCharts,
    helmRepositories,
    fleetKustomizations,
    fleetHelmReleases,
    clusters,
  };
}

export const keyOf = (kind: string, namespace: string | undefined, name: string) =>
  `${kind}/${namespace ?? ""}/${name}`;
export const objectKey = (o: KubeObject) => keyOf(o.kind, o.metadata.namespace, o.metadata.name);
