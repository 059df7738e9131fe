// Which kinds are cluster-scoped, from the Kubernetes schema table; unknown kinds (custom
// resources) count as namespaced, as kustomize assumes.
import schema from "../schema/k8s-schema.json" with { type: "json" };
import { groupVersion, kindOf, namespaceOf, type Resource } from "../resource.js";

const clusterScoped = new Set<string>();
for (const [key, [, namespaced]] of Object.entries(
  (schema as unknown as { kinds: Record<string, [string, number]> }).kinds,
)) {
  if (!namespaced) {
    const [group, , kind] = key.split("/");
    clusterScoped.add(`${group}/${kind}`);
  }
}

export function isClusterScoped(kind: string, group: string): boolean {
  return clusterScoped.has(`${group}/${kind}`);
}

/** kustomize's EffectiveNamespace: "" for a cluster-scoped object, "default" for an unset namespace. */
export const effectiveNamespace = (r: Resource, ns = namespaceOf(r)): string =>
  isClusterScoped(kindOf(r), groupVersion(r).group) ? "" : ns || "default";
