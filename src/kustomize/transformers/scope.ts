// Which kinds are cluster-scoped, from the Kubernetes schema table; unknown kinds (custom
// resources) count as namespaced, as kustomize assumes.
import schema from "../schema/k8s-schema.json" with { type: "json" };

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
