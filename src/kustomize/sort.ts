// kustomize's default ("legacy") output order: some kinds first, webhooks last, the rest in between,
// ties broken by the resource id.
import { groupVersion, kindOf, nameOf, namespaceOf, type Resource } from "./resource.js";

const LEGACY_ORDER_FIRST = [
  "Namespace",
  "ResourceQuota",
  "StorageClass",
  "CustomResourceDefinition",
  "ServiceAccount",
  "PodSecurityPolicy",
  "Role",
  "ClusterRole",
  "RoleBinding",
  "ClusterRoleBinding",
  "ConfigMap",
  "Secret",
  "Endpoints",
  "Service",
  "LimitRange",
  "PriorityClass",
  "PersistentVolume",
  "PersistentVolumeClaim",
  "Deployment",
  "StatefulSet",
  "CronJob",
  "PodDisruptionBudget",
];
const LEGACY_ORDER_LAST = ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"];

/** `group_version_kind` with ~G/~V/~K for empty parts ("~" sorts after letters: core kinds last among equals). */
const gvkSortString = (group: string, version: string, kind: string) =>
  `${group || "~G"}_${version || "~V"}_${kind || "~K"}`;

export function legacySort(
  resources: Resource[],
  first: string[] = LEGACY_ORDER_FIRST,
  last: string[] = LEGACY_ORDER_LAST,
): Resource[] {
  const rank = (kind: string) => {
    const f = first.indexOf(kind);
    if (f >= 0) return f - first.length;
    const l = last.indexOf(kind);
    return l >= 0 ? l + 1 : 0;
  };
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...resources].sort((a, b) => {
    const ga = groupVersion(a);
    const gb = groupVersion(b);
    const [ka, kb] = [kindOf(a), kindOf(b)];
    if (ga.group !== gb.group || ga.version !== gb.version || ka !== kb) {
      const d = rank(ka) - rank(kb);
      if (d !== 0) return d;
      const [sa, sb] = [gvkSortString(ga.group, ga.version, ka), gvkSortString(gb.group, gb.version, kb)];
      // Namespaces of the core group sort before same-rank Namespaces of other groups.
      if (ka === "Namespace" && kb === "Namespace" && (ga.group === "" || gb.group === "")) return cmp(sb, sa);
      return cmp(sa, sb);
    }
    return cmp(`${namespaceOf(a) || "~X"}|${nameOf(a) || "~N"}`, `${namespaceOf(b) || "~X"}|${nameOf(b) || "~N"}`);
  });
}

/** kustomize's Gvk.IsLessThan as a comparator: legacy kind rank, then group_version_kind. */
export function gvkCompare(
  a: { group?: string; version?: string; kind?: string },
  b: { group?: string; version?: string; kind?: string },
): number {
  const rank = (kind = "") => {
    const f = LEGACY_ORDER_FIRST.indexOf(kind);
    if (f >= 0) return f - LEGACY_ORDER_FIRST.length;
    const l = LEGACY_ORDER_LAST.indexOf(kind);
    return l >= 0 ? l + 1 : 0;
  };
  const d = rank(a.kind) - rank(b.kind);
  if (d !== 0) return d;
  const [sa, sb] = [
    gvkSortString(a.group ?? "", a.version ?? "", a.kind ?? ""),
    gvkSortString(b.group ?? "", b.version ?? "", b.kind ?? ""),
  ];
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}
