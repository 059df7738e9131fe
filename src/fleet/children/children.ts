// A fleet kind's children: the object each selected cluster gets, and how a child's status reads in the
// parent's per-cluster table.
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { ClusterChildStatus } from "../../api/fleet/fleet-kustomization.js";
import { apiVersionOf } from "../../api/kinds.js";
import { isProvablyUnchanged } from "../../ssa/index.js";
import type { ArtifactFiles, ChildKind, FleetChild, FleetParent } from "./child-kind.js";
import { withFleetDependencies } from "./fleet-dependencies.js";

export const CLUSTER_LABEL = "fleet.flotilla.dev/cluster";
/** The field manager of everything the fleet applies. */
export const FLEET_FIELD_MANAGER = "flotilla-fleet";

export const childName = (parent: FleetParent, cluster: string) => `${parent.metadata.name}-${cluster}`;

export function desiredChild<P extends FleetParent>(
  kind: ChildKind<P>,
  parent: P,
  c: FleetCluster,
  files?: ArtifactFiles,
): FleetChild {
  const template = parent.spec.template;
  return {
    apiVersion: apiVersionOf(kind.child),
    kind: kind.child.kind,
    metadata: {
      name: childName(parent, c.metadata.name),
      namespace: parent.metadata.namespace,
      labels: {
        ...(template.metadata?.labels ?? {}),
        [kind.parentLabel]: parent.metadata.name,
        [CLUSTER_LABEL]: c.metadata.name,
      },
      ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
      ownerReferences: [
        {
          apiVersion: apiVersionOf(kind.parent),
          kind: kind.parent.kind,
          name: parent.metadata.name,
          uid: parent.metadata.uid!,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: withFleetDependencies(kind.childSpec(parent, c, files), parent.spec.dependsOn, kind.parent, c.metadata.name),
  };
}

const WAITING = new Set(["DependencyNotReady", "SourceNotReady", "ArtifactFailed"]);

export type ChildState = "ready" | "failing" | "progressing" | "waiting";
export type Row = ClusterChildStatus & { state: ChildState };

export function childStatus<P extends FleetParent>(
  kind: ChildKind<P>,
  cluster: string,
  child: string,
  k: FleetChild | undefined,
): Row {
  const ready = k?.status?.conditions?.find((c) => c.type === "Ready");
  const revision = k ? kind.revisionOf(k) : undefined;
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

/**
 * Applying the desired child would change nothing (the resource manager's own test: every value it sets is
 * there, and every field the fleet's field manager owns is still desired, so a field dropped from the
 * template is applied away and a hand edit put back). Then nothing is applied: an idle fleet writes nothing.
 */
export function childUnchanged(desired: FleetChild, existing: FleetChild | undefined): boolean {
  if (!existing || existing.metadata.deletionTimestamp) return false;
  return isProvablyUnchanged(desired, existing, FLEET_FIELD_MANAGER);
}
