// Everything a plan reads of the management cluster, read once: the sources, the apps, the fleet parents
// and the Clusters. A snapshot (snapshot.ts) holds the same, so an offline plan walks the same state.
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { FleetHelmRelease } from "../../api/fleet/fleet-helmrelease.js";
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import { SERVED_KINDS } from "../../api/kinds.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { ResourceSet } from "../../api/operator/resourceset.js";
import type { HelmChart, HelmRepository } from "../../api/source/helm.js";
import type { Cluster } from "../../kube/cluster.js";
import { listServed } from "../status/list-served.js";

export interface ManagementState {
  gitRepositories: KubeObject[];
  /** Absent from snapshots written before plans knew OCIRepositories. */
  ociRepositories?: KubeObject[];
  kustomizations: Kustomization[];
  helmReleases: HelmRelease[];
  helmCharts: HelmChart[];
  /** Absent from snapshots written before plans fetched chart versions. */
  helmRepositories?: HelmRepository[];
  fleetKustomizations: FleetKustomization[];
  fleetHelmReleases: FleetHelmRelease[];
  clusters: FleetCluster[];
  /** The Flux Operator's ResourceSets (absent from snapshots written before plans rendered them). */
  resourceSets?: ResourceSet[];
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
    ociRepositories,
    resourceSets,
  ] = await Promise.all([
    listServed<KubeObject>(cluster, k.GitRepository, ns),
    listServed<Kustomization>(cluster, k.Kustomization, ns),
    listServed<HelmRelease>(cluster, k.HelmRelease, ns),
    listServed<HelmChart>(cluster, k.HelmChart, ns),
    listServed<FleetKustomization>(cluster, k.FleetKustomization, ns),
    listServed<FleetHelmRelease>(cluster, k.FleetHelmRelease, ns),
    listServed<FleetCluster>(cluster, k.Cluster, ns),
    listServed<HelmRepository>(cluster, k.HelmRepository, ns),
    listServed<KubeObject>(cluster, k.OCIRepository, ns),
    listServed<ResourceSet>(cluster, k.ResourceSet, ns),
  ]);
  return {
    gitRepositories,
    ociRepositories,
    kustomizations,
    helmReleases,
    helmCharts,
    helmRepositories,
    fleetKustomizations,
    fleetHelmReleases,
    clusters,
    resourceSets,
  };
}

export const keyOf = (kind: string, namespace: string | undefined, name: string) =>
  `${kind}/${namespace ?? ""}/${name}`;
export const objectKey = (o: KubeObject) => keyOf(o.kind, o.metadata.namespace, o.metadata.name);
