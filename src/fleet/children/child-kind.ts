// What a fleet kind fans out, as the shared fan-out reconciler (reconciler.ts) needs it: the parent
// and child kinds, how a child is built for one cluster, and how its status reads.
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { ClusterRemovalPolicy, ClusterSelector, FleetStatus } from "../../api/fleet/fleet-kustomization.js";
import type { KindEntry } from "../../api/kinds.js";
import type { Condition } from "../../api/meta/conditions.js";
import type { DependencyReference, KubeObject } from "../../api/meta/object.js";
import type { Rollout } from "../../api/fleet/rollout.js";
import type { KubeClient } from "../../kube/client.js";
import type { SourceFetcher } from "../../sources/consumer.js";

export interface FleetParent extends KubeObject {
  spec: {
    clusterSelector: ClusterSelector;
    template: {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec: { interval?: string; kubeConfig?: unknown };
    };
    onClusterRemoval?: ClusterRemovalPolicy;
    clusterRemovalGracePeriod?: string;
    dependsOn?: DependencyReference[];
    rollout?: Rollout;
    suspend?: boolean;
  };
  status?: FleetStatus;
}

export type FleetChild = KubeObject & { spec: Record<string, unknown>; status?: { conditions?: Condition[] } };

export interface ChildKind<P extends FleetParent> {
  parent: KindEntry;
  child: KindEntry;
  /** Label naming the parent on every child (children are listed by it). */
  parentLabel: string;
  /** The child's spec for one cluster (kubeConfig set from the Cluster, its values applied). */
  childSpec(parent: P, cluster: FleetCluster, files?: ArtifactFiles): Record<string, unknown>;
  /**
   * The files of the source revision a child will read, when its spec depends on them (a fallback path);
   * undefined when it does not.
   */
  filesFor?(sources: () => SourceFetcher, parent: P, revision: string | undefined): Promise<ArtifactFiles | undefined>;
  /** The source filesFor reads for this parent (its namespace, when another), or undefined when it reads none. */
  filesSource?(parent: P): { kind: string; name: string; namespace?: string } | undefined;
  /** What the child has applied, for the per-cluster table. */
  revisionOf(child: FleetChild): string | undefined;
  /** The merge patch that makes deleting the child leave what it applied in place (onClusterRemoval: Orphan). */
  orphanPatch: Record<string, unknown>;
  /** How a staged rollout holds a child at a revision; a kind without it refuses spec.rollout. */
  pins?: RevisionPins<P>;
}

/** What a child's spec may ask of the artifact it will read. */
export interface ArtifactFiles {
  /** The directory exists in the artifact (paths leaving the artifact are refused). */
  hasDirectory(path: string): boolean;
}

export interface RevisionPins<P extends FleetParent> {
  /** The revision the template's source offers now (undefined while it has none). */
  live(client: KubeClient, parent: P): Promise<string | undefined>;
  /** Makes `revision` available to children; returns the handle their spec names (a pinned source). */
  pin(client: KubeClient, parent: P, revision: string): Promise<string>;
  /** The child's spec reading the pinned handle. */
  pinnedSpec(spec: Record<string, unknown>, handle: string): Record<string, unknown>;
  /** The handle a child's spec reads. */
  handleOf(child: FleetChild): string | undefined;
  /** Deletes the pinned handles no child reads (and, once the rollout is gone, whatever it kept for itself). */
  sweep(client: KubeClient, parent: P, inUse: Set<string>, rolloutActive: boolean): Promise<void>;
  /** The kinds whose changes bring a new live revision, and which parents a changed object concerns. */
  sources: { kind: KindEntry; parentsOf(obj: KubeObject, parents: P[]): P[] }[];
}
