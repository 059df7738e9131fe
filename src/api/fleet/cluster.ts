// Cluster (fleet.flotilla.dev/v1alpha1): one cluster of the fleet as an object — how to reach it (a
// kubeconfig Secret in the Cluster's namespace, never the kubeconfig itself), its labels (what fleet
// selectors match), per-cluster variables, and what the last probe saw. Discovered from Kamaji's
// TenantControlPlanes or created by hand (`flotilla create cluster`).
import type { KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import { bool, condition, crdFor, duration, int, obj, str, strMap } from "../crd.js";
import { SERVED_KINDS } from "../kinds.js";

export interface ClusterSpec {
  kubeConfig: { secretRef: { name: string; key?: string } };
  /** Per-cluster values the fleet kinds hand to each cluster's child (postBuild, Helm values). */
  variables?: Record<string, string>;
  suspend?: boolean;
  /** How often the cluster is probed (default 1m). */
  interval?: string;
}

export interface ClusterStatus {
  observedGeneration?: number;
  conditions?: Condition[];
  kubernetesVersion?: string;
  nodeCount?: number;
  lastProbeTime?: string;
  lastHandledReconcileAt?: string;
}

export type FleetCluster = KubeObject & { spec: ClusterSpec; status?: ClusterStatus };

export const CLUSTER_DEFAULT_INTERVAL = "1m";

export const clusterCrd = () =>
  crdFor(SERVED_KINDS.Cluster, {
    v1alpha1: {
      spec: obj(
        {
          kubeConfig: obj({ secretRef: obj({ name: str({ minLength: 1 }), key: str() }, ["name"]) }, ["secretRef"]),
          variables: strMap(),
          suspend: bool(),
          interval: duration(),
        },
        ["kubeConfig"],
      ),
      status: obj({
        observedGeneration: int({ format: "int64" }),
        conditions: { type: "array", items: condition() },
        kubernetesVersion: str(),
        nodeCount: int(),
        lastProbeTime: str({ format: "date-time" }),
        lastHandledReconcileAt: str(),
      }),
    },
  });
