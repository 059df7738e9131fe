// The labels and annotations through which users steer the resource manager (Flux's names), and the
// owner labels that mark objects as ours.
import type { KubeObject } from "../api/meta/object.js";

const FLUX_GROUP = "kustomize.toolkit.fluxcd.io";

export const ANNOTATIONS = {
  ssa: `${FLUX_GROUP}/ssa`,
  prune: `${FLUX_GROUP}/prune`,
  reconcile: `${FLUX_GROUP}/reconcile`,
  force: `${FLUX_GROUP}/force`,
} as const;

export type SsaPolicy = "Override" | "Merge" | "IfNotPresent" | "Ignore";

/** Owner labels; HelmRelease uses its own group (`helm.toolkit.fluxcd.io`). */
export interface Owner {
  group: string;
  name: string;
  namespace: string;
}

const ownerLabels = (o: Owner): Record<string, string> => ({
  [`${o.group}/name`]: o.name,
  [`${o.group}/namespace`]: o.namespace,
});

export function setOwnerLabels(obj: KubeObject, owner: Owner): void {
  obj.metadata.labels = { ...obj.metadata.labels, ...ownerLabels(owner) };
}

export function isOwnedBy(obj: KubeObject | undefined, owner: Owner): boolean {
  if (!obj) return false;
  return Object.entries(ownerLabels(owner)).every(([k, v]) => obj.metadata.labels?.[k] === v);
}

/** A key set as label or annotation with the given value, compared case-insensitively (as Flux). */
function hasMetadataValue(obj: KubeObject | undefined, key: string, value: string): boolean {
  if (!obj) return false;
  const found = obj.metadata.annotations?.[key] ?? obj.metadata.labels?.[key];
  return typeof found === "string" && found !== "" && found.toLowerCase() === value.toLowerCase();
}

export function ssaPolicy(obj: KubeObject | undefined): SsaPolicy {
  for (const p of ["Merge", "IfNotPresent", "Ignore"] as const) if (hasMetadataValue(obj, ANNOTATIONS.ssa, p)) return p;
  return "Override";
}

export const reconcileDisabled = (obj: KubeObject | undefined) =>
  hasMetadataValue(obj, ANNOTATIONS.reconcile, "disabled");
export const pruneDisabled = (obj: KubeObject | undefined) => hasMetadataValue(obj, ANNOTATIONS.prune, "disabled");
export const forceEnabled = (obj: KubeObject | undefined) => hasMetadataValue(obj, ANNOTATIONS.force, "enabled");
