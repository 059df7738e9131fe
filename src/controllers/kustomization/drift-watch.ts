// A Kustomization's applied objects, watched for drift (decision 0026; the machinery is in
// ../drift-watch/): what it labels them with, its field manager, when it would not put drift back,
// and the objects it leaves alone. Off with --feature-gates=DriftWatch=false.
import { KUSTOMIZE_GROUP } from "../../api/kinds.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { Cluster } from "../../kube/cluster.js";
import type { Controller } from "../../runtime/controller.js";
import { ANNOTATIONS, reconcileDisabled, ssaPolicy } from "../../ssa/metadata.js";
import { type OwnerKind, watchOwnerDrift } from "../drift-watch/owner-drift.js";

/**
 * What the reconcile would not put back: `reconcile: disabled` and `ssa: Ignore` never, `ssa:
 * IfNotPresent` not while the object exists (a deleted one it does create again).
 */
export function kustomizationExemption(obj: KubeObject, deleted: boolean): string | undefined {
  if (reconcileDisabled(obj)) return `${ANNOTATIONS.reconcile}: disabled`;
  const policy = ssaPolicy(obj);
  if (policy === "Ignore" || (policy === "IfNotPresent" && !deleted)) return `${ANNOTATIONS.ssa}: ${policy}`;
  return undefined;
}

export const KUSTOMIZATION_OWNER: OwnerKind = {
  labelGroup: KUSTOMIZE_GROUP,
  // The reconciler's field manager (Flux's).
  fieldManager: "kustomize-controller",
  idle: (o) => Boolean((o as Kustomization).spec?.suspend || o.metadata.deletionTimestamp),
  exemption: kustomizationExemption,
};

export function watchKustomizationDrift(controller: Controller, local: Cluster): void {
  watchOwnerDrift(controller, local, KUSTOMIZATION_OWNER);
}
