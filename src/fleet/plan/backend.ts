// Where a plan reads what it does not render: online, the management cluster and each app's target
// cluster (as the identity its controller uses); offline, a snapshot (offline-backend.ts).
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { ResourceSet } from "../../api/operator/resourceset.js";
import type { HelmRepository } from "../../api/source/helm.js";
import type { PlanEntry, Redactor } from "../../ssa/index.js";

export interface AppOutcome {
  entries: PlanEntry[];
  /** Subjects (`Kind/ns/name`) the new set no longer has, that an apply would delete. */
  deleted: string[];
}

export interface PlanBackend {
  mode: "online" | "offline";
  /** postBuild variables; values read from Secrets are handed to the redactor. */
  variables(ks: Kustomization, redactor: Redactor): Promise<Record<string, string>>;
  /** The current artifact of a source the plan does not replace, unpacked. */
  artifactDir(kind: string, namespace: string, name: string): Promise<string>;
  /** The chart package the HelmRelease reads now. */
  chart(hr: HelmRelease): Promise<string>;
  /** A chart version the HelmRelease asks for that no HelmChart holds yet, pulled from its HelmRepository. */
  pullChart(repo: HelmRepository, chart: string, version: string): Promise<string>;
  /** The values the HelmRelease composes; values read from Secrets are handed to the redactor. */
  values(hr: HelmRelease, redactor: Redactor): Promise<Record<string, unknown>>;
  namespaced(hr: HelmRelease, o: KubeObject): Promise<boolean>;
  diffKustomization(ks: Kustomization, objects: KubeObject[], redactor: Redactor): Promise<AppOutcome>;
  diffHelmRelease(hr: HelmRelease, objects: KubeObject[], redactor: Redactor): Promise<AppOutcome>;
  /**
   * What a ResourceSet would do where it applies: one outcome per target — its own cluster (`cluster`
   * undefined) or each fleet Cluster it selects — and one for each target it would leave (all pruned).
   * Undefined when the backend cannot (offline: inputs and Clusters are read from the cluster).
   */
  planResourceSet?(
    r: ResourceSet,
    redactor: Redactor,
  ): Promise<{ cluster?: FleetCluster | string; outcome: AppOutcome }[]>;
  /**
   * Checks out a GitRepository whose spec a render changes (`live`: as it is now, if it exists); a note says
   * when its credentials were not used. Undefined when the backend cannot.
   */
  checkoutChanged?(repo: KubeObject, live: KubeObject | undefined): Promise<{ dir: string; note?: string }>;
}
