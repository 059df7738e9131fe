// A fleet kind's children: the object each selected cluster gets, and how a child's status reads in the
// parent's per-cluster table.
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { ClusterChildStatus } from "../../api/fleet/fleet-kustomization.js";
import { apiVersionOf } from "../../api/kinds.js";
import type { ArtifactFiles, ChildKind, FleetChild, FleetParent } from "./child-kind.js";

export const CLUSTER_LABEL = "fleet.flotilla.dev/cluster";

export const childName = (parent: FleetParent, cluster: string) => `${parent.metadata.name}-${cluster}`;

/** The child's spec with the parent's fleet dependencies as dependencies on this cluster's children of them. */
function withFleetDependencies(spec: Record<string, unknown>, parent: FleetParent, cluster: string) {
  const deps = parent.spec.dependsOn ?? [];
  if (!deps.length) return spec;
  const own = (spec.dependsOn as { name: string; namespace?: string }[] | undefined) ?? [];
  return { ...spec, dependsOn: [...own, ...deps.map((d) => ({ name: `${d.name}-${cluster}` }))] };
}

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
    spec: withFleetDependencies(kind.childSpec(parent, c, files), parent, c.metadata.name),
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

/** Every field `want` sets has that value in `have` (what the API server added beside them is ignored). */
export function isSubset(want: unknown, have: unknown): boolean {
  if (Array.isArray(want))
    return Array.isArray(have) && have.length === want.length && want.every((w, i) => isSubset(w, have[i]));
  if (want && typeof want === "object") {
    if (!have || typeof have !== "object") return false;
    return Object.entries(want).every(([k, v]) => isSubset(v, (have as Record<string, unknown>)[k]));
  }
  return want === have;
}

/**
 * The child already is what the parent wants: it carries the digest of the desired child (desired-digest.ts:
 * nothing was dropped from it since the last apply) and its spec, labels, annotations and owner hold every
 * value the desired child sets. Then nothing is applied — an idle fleet writes nothing — while a hand edit
 * of a field the fleet sets still differs, and is put back.
 */
export function childUnchanged(desired: FleetChild, existing: FleetChild | undefined): boolean {
  if (!existing || existing.metadata.deletionTimestamp) return false;
  const { labels, annotations, ownerReferences } = desired.metadata;
  return (
    isSubset(desired.spec, existing.spec) &&
    isSubset(labels ?? {}, existing.metadata.labels ?? {}) &&
    isSubset(annotations ?? {}, existing.metadata.annotations ?? {}) &&
    isSubset(ownerReferences ?? [], existing.metadata.ownerReferences ?? [])
  );
}
