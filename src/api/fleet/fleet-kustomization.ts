// FleetKustomization (fleet.flotilla.dev/v1alpha1): one Kustomization spec fanned out to every Cluster a
// selector matches — a child Kustomization per cluster, `<name>-<cluster>` in the same namespace, applying
// to that cluster through its kubeconfig Secret, with the cluster's values for postBuild substitution.
import type { DependencyReference, KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import type { KustomizationSpec } from "../kustomize/kustomization.js";
import { kustomizationSchemas } from "../kustomize/kustomization-schema.js";
import { arr, bool, dependsOnSchema, condition, crdFor, duration, int, obj, str, strMap } from "../crd.js";
import { SERVED_KINDS } from "../kinds.js";
import { type ClusterSelector, clusterSelectorSchema } from "./selector.js";
import { type Rollout, type RolloutStatus, rolloutSchema, rolloutStatusSchema } from "./rollout.js";

export type { ClusterSelector };

export const CLUSTER_REMOVAL_POLICIES = ["Orphan", "Prune"] as const;
export type ClusterRemovalPolicy = (typeof CLUSTER_REMOVAL_POLICIES)[number];

export interface ClusterChildStatus {
  cluster: string;
  child: string;
  ready: "True" | "False" | "Unknown";
  revision?: string;
  message?: string;
}

export interface FleetKustomizationSpec {
  clusterSelector: ClusterSelector;
  template: {
    metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
    spec: KustomizationSpec;
  };
  /**
   * The path for a cluster whose own directory (spec.template.spec.path with its values) is not in the
   * source's artifact, e.g. `./apps/podinfo/base` beside `./apps/podinfo/${cluster_name}`; it may use them too.
   */
  fallbackPath?: string;
  /**
   * Flux dependsOn entries, per cluster: a plain entry (no kind) or one naming a fleet kind is that fleet
   * object's child on the same cluster, which must be Ready before this one's there — and which keeps its
   * child on a cluster until this one's is gone from it; any other kind is handed to each child as written.
   */
  dependsOn?: DependencyReference[];
  /**
   * What happens once a cluster that stopped matching (its Cluster deleted, or its labels changed) has been
   * gone for clusterRemovalGracePeriod: Orphan (default) deletes the child and leaves what it applied running
   * there; Prune deletes the child and what it applied (decision 0031).
   */
  onClusterRemoval?: ClusterRemovalPolicy;
  /** How long such a cluster keeps its child, said in status, before onClusterRemoval applies (default: the controller's --cluster-removal-grace-period, 10m). */
  clusterRemovalGracePeriod?: string;
  rollout?: Rollout;
  suspend?: boolean;
}

export interface FleetStatus {
  observedGeneration?: number;
  conditions?: Condition[];
  counts?: { total: number; ready: number; failing: number; progressing: number; waiting: number };
  clusters?: ClusterChildStatus[];
  rollout?: RolloutStatus;
  lastHandledReconcileAt?: string;
}

export type FleetKustomization = KubeObject & { spec: FleetKustomizationSpec; status?: FleetStatus };

export const fleetStatusSchema = () =>
  obj({
    observedGeneration: int({ format: "int64" }),
    conditions: arr(condition()),
    counts: obj({ total: int(), ready: int(), failing: int(), progressing: int(), waiting: int() }),
    clusters: arr(
      obj({ cluster: str(), child: str(), ready: str(), revision: str(), message: str() }, [
        "cluster",
        "child",
        "ready",
      ]),
    ),
    rollout: rolloutStatusSchema(),
    lastHandledReconcileAt: str(),
  });

export const fleetKustomizationCrd = () =>
  crdFor(SERVED_KINDS.FleetKustomization, {
    v1alpha1: {
      spec: obj(
        {
          clusterSelector: clusterSelectorSchema(),
          template: obj(
            { metadata: obj({ labels: strMap(), annotations: strMap() }), spec: kustomizationSchemas.v1!.spec },
            ["spec"],
          ),
          fallbackPath: str(),
          dependsOn: dependsOnSchema(),
          onClusterRemoval: str({ enum: [...CLUSTER_REMOVAL_POLICIES] }),
          clusterRemovalGracePeriod: duration(),
          rollout: rolloutSchema(),
          suspend: bool(),
        },
        ["clusterSelector", "template"],
      ),
      status: fleetStatusSchema(),
    },
  });
