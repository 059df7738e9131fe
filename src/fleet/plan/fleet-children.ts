// A fleet parent's children as the fan-out would write them now — one per selected Cluster of its
// namespace, built by the fan-out's own desiredChild — carrying the live child's status (its inventory,
// its last release), so each is planned like any Kustomization or HelmRelease on that cluster. A live
// child whose cluster is no longer selected is listed apart when its removal prunes what it applied
// (onClusterRemoval: Prune; the default, Orphan, leaves it running there).
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { KubeObject } from "../../api/meta/object.js";
import { selects } from "../clusters.js";
import type { ChildKind, FleetChild, FleetParent } from "../children/child-kind.js";
import { CLUSTER_LABEL, desiredChild } from "../children/children.js";
import { removalPolicy } from "../fanout/removal.js";
import { filesIn } from "../fleetkustomization/artifact-files.js";

export interface PlannedChild {
  cluster: string;
  child?: FleetChild;
  /** The cluster's child could not be built (an undefined cluster value, a path leaving the artifact). */
  error?: string;
}

export function fleetChildren<P extends FleetParent>(
  kind: ChildKind<P>,
  parent: P,
  clusters: FleetCluster[],
  live: KubeObject[],
  artifactDir: string | undefined,
): { wanted: PlannedChild[]; removed: FleetChild[] } {
  const ns = parent.metadata.namespace;
  const mine = live.filter(
    (o) => o.metadata.namespace === ns && o.metadata.labels?.[kind.parentLabel] === parent.metadata.name,
  ) as FleetChild[];
  const selected = clusters.filter((c) => c.metadata.namespace === ns && selects(parent.spec.clusterSelector, c));
  const wanted = selected.map((c): PlannedChild => {
    try {
      const files = artifactDir ? filesIn(artifactDir) : undefined;
      const desired = desiredChild(kind, parent, c, files);
      const existing = mine.find((o) => o.metadata.name === desired.metadata.name);
      return {
        cluster: c.metadata.name,
        child: { ...desired, ...(existing?.status ? { status: existing.status } : {}) },
      };
    } catch (err) {
      return { cluster: c.metadata.name, error: (err as Error).message };
    }
  });
  const names = new Set(selected.map((c) => c.metadata.name));
  const removed =
    removalPolicy(parent) === "Orphan" ? [] : mine.filter((o) => !names.has(o.metadata.labels?.[CLUSTER_LABEL] ?? ""));
  return { wanted, removed };
}
