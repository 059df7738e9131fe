// A FleetKustomization's children: the Kustomization each selected cluster gets, and how a child's
// status reads in the parent's per-cluster table.
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { ClusterChildStatus, FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import { KUSTOMIZE_GROUP, SERVED_KINDS } from "../../api/kinds.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import { clusterVariables, expandClusterVariables } from "../clusters.js";

/** Labels every child carries: which parent, which cluster (children are listed by them). */
export const PARENT_LABEL = "fleet.flotilla.dev/fleet-kustomization";
export const CLUSTER_LABEL = "fleet.flotilla.dev/cluster";

export const childName = (fk: FleetKustomization, cluster: string) => `${fk.metadata.name}-${cluster}`;

export function desiredChild(fk: FleetKustomization, c: FleetCluster): Kustomization {
  const template = fk.spec.template;
  const vars = clusterVariables(c);
  const spec = structuredClone(template.spec);
  if (spec.path) spec.path = expandClusterVariables(spec.path, vars, "spec.template.spec.path");
  const ref = c.spec.kubeConfig.secretRef;
  spec.kubeConfig = { secretRef: { name: ref.name, ...(ref.key ? { key: ref.key } : {}) } };
  // The cluster's values win over the template's defaults of the same name.
  spec.postBuild = { ...spec.postBuild, substitute: { ...(spec.postBuild?.substitute ?? {}), ...vars } };
  return {
    apiVersion: `${KUSTOMIZE_GROUP}/v1`,
    kind: "Kustomization",
    metadata: {
      name: childName(fk, c.metadata.name),
      namespace: fk.metadata.namespace,
      labels: {
        ...(template.metadata?.labels ?? {}),
        [PARENT_LABEL]: fk.metadata.name,
        [CLUSTER_LABEL]: c.metadata.name,
      },
      ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
      ownerReferences: [
        {
          apiVersion: `${SERVED_KINDS.FleetKustomization.group}/v1alpha1`,
          kind: "FleetKustomization",
          name: fk.metadata.name,
          uid: fk.metadata.uid!,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec,
  } as Kustomization;
}

const WAITING = new Set(["DependencyNotReady", "SourceNotReady", "ArtifactFailed"]);

export type ChildState = "ready" | "failing" | "progressing" | "waiting";

export function childStatus(
  cluster: string,
  child: string,
  k: Kustomization | undefined,
): ClusterChildStatus & { state: ChildState } {
  const ready = k?.status?.conditions?.find((c) => c.type === "Ready");
  const revision = k?.status?.lastAppliedRevision;
  const base = { cluster, child, ...(revision ? { revision } : {}) };
  if (!k || !ready || ready.status === "Unknown" || ready.observedGeneration !== k.metadata.generation)
    return {
      ...base,
      ready: "Unknown",
      message: ready?.message ?? "waiting for its first reconcile",
      state: "progressing",
    };
  if (ready.status === "True") return { ...base, ready: "True", message: ready.message, state: "ready" };
  return { ...base, ready: "False", message: ready.message, state: WAITING.has(ready.reason) ? "waiting" : "failing" };
}
