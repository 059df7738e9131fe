// A Kustomization's applied objects, watched for drift (decision 0026; the machinery is in
// ../drift-watch/): what it labels them with, its field manager's Apply entry, when it would not put
// drift back, and the objects it leaves alone. Off with --feature-gates=DriftWatch=false.
import { KUSTOMIZE_GROUP } from "../../api/kinds.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { Cluster } from "../../kube/cluster.js";
import type { Controller } from "../../runtime/controller.js";
import { ANNOTATIONS, reconcileDisabled, ssaPolicy } from "../../ssa/metadata.js";
import { type OwnerKind, watchOwnerDrift } from "../drift-watch/owner-drift.js";
import { KustomizationReconciler } from "./reconciler.js";
import { KUSTOMIZATION_FIELD_MANAGER } from "./render-apply.js";

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

/** A Kustomization's objects: ours is the Apply entry of the field manager its reconciler applies as. */
export const kustomizationOwner = (fieldManager = KUSTOMIZATION_FIELD_MANAGER): OwnerKind => ({
  labelGroup: KUSTOMIZE_GROUP,
  own: { manager: fieldManager, operation: "Apply" },
  idle: (o) => Boolean((o as Kustomization).spec?.suspend || o.metadata.deletionTimestamp),
  exemption: kustomizationExemption,
});

export const KUSTOMIZATION_OWNER = kustomizationOwner();

export function watchKustomizationDrift(controller: Controller, local: Cluster): void {
  const reconciler = controller.options.reconciler;
  // Its options.fieldManager, when it was given one (the manager's flags leave the default).
  const fieldManager = reconciler instanceof KustomizationReconciler ? reconciler["options"].fieldManager : undefined;
  watchOwnerDrift(controller, local, kustomizationOwner(fieldManager));
}
