// FleetHelmRelease (fleet.flotilla.dev/v1alpha1): one HelmRelease spec fanned out to every Cluster a
// selector matches — a child HelmRelease per cluster, `<name>-<cluster>`, installing on that cluster
// through its kubeconfig Secret, `${cluster_name}`, `${cluster_label_<key>}` and the Cluster's variables
// expanded in the template's values.
import type { DependencyReference, KubeObject } from "../meta/object.js";
import type { HelmReleaseSpec } from "../helm/helmrelease.js";
import { helmReleaseSchemas } from "../helm/helmrelease-schema.js";
import { bool, dependsOnSchema, crdFor, duration, obj, str, strMap } from "../crd.js";
import { SERVED_KINDS } from "../kinds.js";
import { type Rollout, rolloutSchema } from "./rollout.js";
import {
  CLUSTER_REMOVAL_POLICIES,
  type ClusterRemovalPolicy,
  type FleetStatus,
  fleetStatusSchema,
} from "./fleet-kustomization.js";
import { type ClusterSelector, clusterSelectorSchema } from "./selector.js";

export interface FleetHelmReleaseSpec {
  clusterSelector: ClusterSelector;
  template: {
    metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
    spec: HelmReleaseSpec;
  };
  /** As FleetKustomization's: after the grace period, Orphan (default) leaves the release installed; Prune uninstalls it. */
  onClusterRemoval?: ClusterRemovalPolicy;
  clusterRemovalGracePeriod?: string;
  /** As FleetKustomization's: per cluster, after these fleet objects' children (any fleet kind), removed before them. */
  dependsOn?: DependencyReference[];
  rollout?: Rollout;
  suspend?: boolean;
}

export type FleetHelmRelease = KubeObject & { spec: FleetHelmReleaseSpec; status?: FleetStatus };

export const fleetHelmReleaseCrd = () =>
  crdFor(SERVED_KINDS.FleetHelmRelease, {
    v1alpha1: {
      spec: obj(
        {
          clusterSelector: clusterSelectorSchema(),
          template: obj(
            { metadata: obj({ labels: strMap(), annotations: strMap() }), spec: helmReleaseSchemas.v2.spec },
            ["spec"],
          ),
          onClusterRemoval: str({ enum: [...CLUSTER_REMOVAL_POLICIES] }),
          clusterRemovalGracePeriod: duration(),
          dependsOn: dependsOnSchema(),
          rollout: rolloutSchema(),
          suspend: bool(),
        },
        ["clusterSelector", "template"],
      ),
      status: fleetStatusSchema(),
    },
  });
