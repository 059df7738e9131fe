// flotilla's extension of the ResourceSet (decision 0048): the annotation fleet.flotilla.dev/target-clusters
// holds a label selector (the API's syntax, `env=prod,tier in (a,b)`; empty: every Cluster) over the fleet
// Clusters of the ResourceSet's namespace. Each selected Cluster gets its own group of input sets — the
// ResourceSet's inputs, each with `cluster` added (name, namespace, labels, variables, kubeConfig) — and the
// objects built from that group are applied to that cluster through its kubeconfig Secret. An annotation, not
// a spec field or a provider type, so the operator's schema is untouched; any other fleet.flotilla.dev/
// annotation on a ResourceSet is refused by name rather than ignored.
import type { FleetCluster } from "../../api/fleet/cluster.js";
import { gvkOf, SERVED_KINDS } from "../../api/kinds.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { ResourceSet } from "../../api/operator/resourceset.js";
import type { Cluster } from "../../kube/cluster.js";
import { ReconcileFailure } from "../kit/failure.js";
import { targetCluster } from "../kit/target-cluster.js";
import { UNSUPPORTED_FIELD } from "../kit/unsupported.js";
import { CLUSTER_MODE_ANNOTATIONS, ROLLOUT_ANNOTATION } from "./fleet-annotations.js";
import { type InputSet, inputId } from "./inputs.js";

export const TARGET_CLUSTERS_ANNOTATION = "fleet.flotilla.dev/target-clusters";
const FLEET_PREFIX = "fleet.flotilla.dev/";
const KNOWN = [TARGET_CLUSTERS_ANNOTATION, ...CLUSTER_MODE_ANNOTATIONS];

/** The selector, or undefined when the ResourceSet applies to its own cluster (the operator's behaviour). */
export function clusterSelectorOf(r: KubeObject): string | undefined {
  const annotations = r.metadata.annotations ?? {};
  for (const key of Object.keys(annotations))
    if (key.startsWith(FLEET_PREFIX) && !KNOWN.includes(key))
      throw new ReconcileFailure(
        UNSUPPORTED_FIELD,
        `the annotation ${key} on ResourceSet/${r.metadata.namespace}/${r.metadata.name} is not known to flotilla: the fleet annotations of a ResourceSet are ${KNOWN.join(", ")} (decisions 0048, 0053)`,
        { stalled: true },
      );
  const value = annotations[TARGET_CLUSTERS_ANNOTATION];
  // Stages only mean something across Clusters: said, not ignored. (The removal settings also govern the
  // Clusters left when target-clusters is removed; an approval may linger.)
  if (value === undefined && ROLLOUT_ANNOTATION in annotations)
    throw new ReconcileFailure(
      UNSUPPORTED_FIELD,
      `the annotation ${ROLLOUT_ANNOTATION} on ResourceSet/${r.metadata.namespace}/${r.metadata.name} needs ${TARGET_CLUSTERS_ANNOTATION}: add it, or remove ${ROLLOUT_ANNOTATION}`,
      { stalled: true },
    );
  return value === undefined ? undefined : value.trim();
}

/** `namespace/name` of a Cluster, as status and messages name it. */
export const clusterKey = (c: FleetCluster) => `${c.metadata.namespace}/${c.metadata.name}`;

/** The Clusters of the ResourceSet's namespace the selector picks, by name. */
export async function selectedClusters(local: Cluster, r: ResourceSet, selector: string): Promise<FleetCluster[]> {
  try {
    const items = (await local.list(gvkOf(SERVED_KINDS.Cluster), r.metadata.namespace!, {
      ...(selector ? { labelSelector: selector } : {}),
    })) as FleetCluster[];
    return items.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  } catch (err) {
    // The API server parses the selector: its refusal names what is wrong; say where it came from.
    throw new ReconcileFailure(
      "BuildFailed",
      `failed to list the Clusters of annotation ${TARGET_CLUSTERS_ANNOTATION} '${selector}': ${(err as Error).message}`,
      { stalled: /invalid|unable to parse|found '/i.test((err as Error).message) },
    );
  }
}

/** What a template reads as `inputs.cluster`. */
export function clusterInput(c: FleetCluster): Record<string, unknown> {
  return {
    name: c.metadata.name,
    namespace: c.metadata.namespace,
    labels: c.metadata.labels ?? {},
    variables: c.spec.variables ?? {},
    kubeConfig: { secretRef: { ...c.spec.kubeConfig.secretRef } },
  };
}

/** One cluster's group: each input set with `cluster` added, or one set of its own when there are no inputs. */
export function clusterInputs(inputs: InputSet[], c: FleetCluster, r: ResourceSet): InputSet[] {
  const cluster = clusterInput(c);
  if (inputs.length === 0)
    return [
      {
        id: inputId(clusterKey(c)),
        cluster,
        provider: {
          apiVersion: "fleet.flotilla.dev/v1alpha1",
          kind: "Cluster",
          name: c.metadata.name,
          namespace: c.metadata.namespace,
        },
      },
    ];
  return inputs.map((set, i) => {
    if (Object.hasOwn(set, "cluster"))
      throw new ReconcileFailure(
        "BuildFailed",
        `build failed: inputs[${i}] of ResourceSet/${r.metadata.namespace}/${r.metadata.name} has a key 'cluster', which ${TARGET_CLUSTERS_ANNOTATION} sets: rename the input`,
        { stalled: true },
      );
    return { ...set, cluster };
  });
}

/** Where a cluster's objects go: its kubeconfig Secret, as the ResourceSet's service account there. */
export const clusterTarget = (local: Cluster, c: FleetCluster, r: ResourceSet, defaultServiceAccount?: string) =>
  targetCluster(
    local,
    {
      metadata: { namespace: c.metadata.namespace },
      spec: { kubeConfig: c.spec.kubeConfig, serviceAccountName: r.spec.serviceAccountName },
    },
    defaultServiceAccount,
  );
