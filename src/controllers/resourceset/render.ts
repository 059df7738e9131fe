// What a ResourceSet generates and where, computed once for the controller and for `flotilla plan`
// (fleet/plan), so a plan shows exactly what the controller would apply: the refusals, the inputs (its own
// and its providers', Flatten or Permute), the build, commonMetadata — once for its own cluster, or once per
// selected fleet Cluster (fleet.flotilla.dev/target-clusters, decision 0048) with that cluster's group;
// each target's objects also by spec.steps entry (decision 0052), applied in that order.
import { createHash } from "node:crypto";
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { ResourceSet } from "../../api/operator/resourceset.js";
import type { Cluster } from "../../kube/cluster.js";
import { asFailure, ReconcileFailure } from "../kit/failure.js";
import { refuseUnsupported } from "../kit/unsupported.js";
import {
  type BuiltStep,
  buildResourceSetSteps,
  flattenSteps,
  setCommonMetadata,
  validateResourceSetSpec,
} from "./build.js";
import { clusterInputs, clusterKey, clusterSelectorOf, selectedClusters } from "./cluster-targets.js";
import { combineInputs, type InputSet, orderProviders } from "./inputs.js";
import { ownInputs, readProviders } from "./providers.js";
import { refuseObjectAnnotations, RESOURCESET_UNSUPPORTED } from "./unsupported.js";

export interface RenderedTarget {
  /** The fleet Cluster the objects go to; undefined: the ResourceSet's own cluster. */
  cluster?: FleetCluster;
  /** Every object, step after step (the same objects as in `steps`). */
  objects: KubeObject[];
  /** The objects per spec.steps entry, in order; one anonymous step without spec.steps. */
  steps: BuiltStep[];
  inputCount: number;
}

export interface RenderedResourceSet {
  /** Whether the ResourceSet targets fleet Clusters (then `targets` has one entry per selected Cluster). */
  clusterMode: boolean;
  targets: RenderedTarget[];
  /**
   * What this render is made of — the spec and the inputs before each Cluster's are added — as a digest:
   * the revision a staged rollout moves from stage to stage (decision 0053). A Cluster's own values are not
   * in it: a Cluster the render reached gets them at each reconcile.
   */
  revision: string;
}

const revisionOf = (r: ResourceSet, inputs: InputSet[]) =>
  "sha256:" +
  createHash("sha256")
    .update(JSON.stringify({ spec: r.spec, inputs }))
    .digest("hex");

const stalled = (prefix: string) => (m: string) =>
  new ReconcileFailure("BuildFailed", `${prefix}: ${m}`, { stalled: true });

function build(r: ResourceSet, inputs: InputSet[]): BuiltStep[] {
  // Providers that export nothing: an empty set, so what they generated is collected (as the operator does).
  if (r.spec.inputsFrom?.length && inputs.length === 0) return [];
  return buildResourceSetSteps(r.spec, inputs);
}

const targetOf = (steps: BuiltStep[], inputCount: number, cluster?: FleetCluster): RenderedTarget => ({
  ...(cluster ? { cluster } : {}),
  objects: flattenSteps(steps),
  steps,
  inputCount,
});

export async function renderResourceSet(local: Cluster, r: ResourceSet): Promise<RenderedResourceSet> {
  refuseUnsupported(r.spec, RESOURCESET_UNSUPPORTED);
  const selector = clusterSelectorOf(r);
  let inputs: InputSet[];
  try {
    validateResourceSetSpec(r.spec);
  } catch (err) {
    throw asFailure(err, stalled("build failed"));
  }
  try {
    const own = ownInputs(r);
    const sources = orderProviders(own, await readProviders(local, r));
    inputs = combineInputs(
      r.spec.inputStrategy?.name ?? "Flatten",
      sources,
      r.spec.inputStrategy?.includeEmptyProviders,
    );
  } catch (err) {
    throw asFailure(err, stalled("build failed"));
  }
  const finish = (target: RenderedTarget): RenderedTarget => {
    refuseObjectAnnotations(target.objects);
    setCommonMetadata(target.objects, r.spec.commonMetadata);
    return target;
  };
  if (selector === undefined) {
    let steps: BuiltStep[];
    try {
      steps = build(r, inputs);
    } catch (err) {
      throw asFailure(err, stalled("build failed"));
    }
    return {
      clusterMode: false,
      targets: [finish(targetOf(steps, inputs.length))],
      revision: revisionOf(r, inputs),
    };
  }
  const targets: RenderedTarget[] = [];
  for (const cluster of await selectedClusters(local, r, selector)) {
    const providersEmpty = r.spec.inputsFrom?.length && inputs.length === 0;
    const group = providersEmpty ? [] : clusterInputs(inputs, cluster, r);
    let steps: BuiltStep[];
    try {
      steps = providersEmpty ? [] : buildResourceSetSteps(r.spec, group);
    } catch (err) {
      throw asFailure(err, stalled(`build failed for Cluster ${clusterKey(cluster)}`));
    }
    targets.push(finish(targetOf(steps, group.length, cluster)));
  }
  return { clusterMode: true, targets, revision: revisionOf(r, inputs) };
}
