// Apply order, as Flux's resource manager sorts: definitions and the things others depend on first,
// webhooks last, every other kind (all custom resources included) in between; ties by group, kind,
// namespace, name. Prune walks the same order backwards.
import { parseApiVersion } from "../kube/object.js";
import type { KubeObject } from "../api/meta/object.js";

const FIRST = [
  "CustomResourceDefinition",
  "Namespace",
  "ClusterClass",
  "RuntimeClass",
  "PriorityClass",
  "StorageClass",
  "VolumeSnapshotClass",
  "IngressClass",
  "GatewayClass",
  "ResourceQuota",
  "ServiceAccount",
  "Role",
  "ClusterRole",
  "RoleBinding",
  "ClusterRoleBinding",
  "ConfigMap",
  "Secret",
  "Service",
  "LimitRange",
  "Deployment",
  "StatefulSet",
  "CronJob",
  "PodDisruptionBudget",
];
const LAST = ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"];

const RANK = new Map<string, number>([
  ...FIRST.map((k, i) => [k, i - FIRST.length] as const),
  ...LAST.map((k, i) => [k, i + 1] as const),
]);

/** Rank by kind name only (not group), as Flux does: unknown kinds rank 0. */
export const kindRank = (kind: string): number => RANK.get(kind) ?? 0;

export interface SortKey {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

function sortKeyOf(obj: Pick<KubeObject, "apiVersion" | "kind" | "metadata">): SortKey {
  return {
    group: parseApiVersion(obj.apiVersion).group,
    kind: obj.kind,
    namespace: obj.metadata.namespace ?? "",
    name: obj.metadata.name,
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function compareKeys(a: SortKey, b: SortKey): number {
  if (a.group !== b.group || a.kind !== b.kind) {
    return kindRank(a.kind) - kindRank(b.kind) || cmp(a.group, b.group) || cmp(a.kind, b.kind);
  }
  return cmp(a.namespace, b.namespace) || cmp(a.name, b.name);
}

export function sortForApply<T extends Pick<KubeObject, "apiVersion" | "kind" | "metadata">>(objects: T[]): T[] {
  return [...objects].sort((a, b) => compareKeys(sortKeyOf(a), sortKeyOf(b)));
}

export function sortForDelete<T extends Pick<KubeObject, "apiVersion" | "kind" | "metadata">>(objects: T[]): T[] {
  return sortForApply(objects).reverse();
}
