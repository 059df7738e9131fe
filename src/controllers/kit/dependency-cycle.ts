// Cycles in dependsOn, across kinds: a Kustomization waiting for a HelmRelease that waits for it waits for
// ever, each saying only that the other is not ready. When a dependency is not ready, the graph is walked
// from the dependent through every object that has dependsOn (Kustomization, HelmRelease, ResourceSet) on
// the same cluster, and a path back to the dependent is named in full:
// `Kustomization/ns/a → HelmRelease/ns/b → Kustomization/ns/a`.
// The walk is bounded (MAX_NODES reads): a longer chain is reported as no cycle, the wait goes on as before.
// Under --no-cross-namespace-refs it stays in the dependent's namespace: a message must not name (or a
// tenant learn of) another namespace's objects.
import { SERVED_KINDS, type KindEntry } from "../../api/kinds.js";
import type { DependencyReference } from "../../api/meta/object.js";
import { pathOf } from "../../api/paths.js";
import type { KubeClient } from "../../kube/client.js";
import { NotFoundError } from "../../kube/errors.js";

const MAX_NODES = 64;

/** The kinds whose objects have dependsOn, by group and kind. */
const DEPENDENT_KINDS: KindEntry[] = [SERVED_KINDS.Kustomization, SERVED_KINDS.HelmRelease, SERVED_KINDS.ResourceSet];

const groupOf = (apiVersion: string | undefined) =>
  apiVersion?.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";

interface Node {
  kind: KindEntry;
  namespace: string;
  name: string;
}

const idOf = (n: Node) => `${n.kind.kind}/${n.namespace}/${n.name}`;

/** The node one dependsOn entry of `from` names, when it is of a kind that has dependsOn itself. */
export function edgeOf(from: Node, dep: DependencyReference): Node | undefined {
  const kindName = dep.kind ?? from.kind.kind;
  const group = dep.kind ? (dep.apiVersion ? groupOf(dep.apiVersion) : undefined) : from.kind.group;
  const kind = DEPENDENT_KINDS.find((k) => k.kind === kindName && (group === undefined || k.group === group));
  if (!kind) return undefined;
  // The operator's ResourceSet names namespaces explicitly; the Flux kinds default to their own.
  const namespace = dep.namespace ?? (from.kind === SERVED_KINDS.ResourceSet ? undefined : from.namespace);
  return namespace ? { kind, namespace, name: dep.name } : undefined;
}

/**
 * The chain of ids from `self` back to itself through dependsOn, or undefined when there is none within
 * the bound. `self` is read as given (its spec in hand), the rest from the cluster.
 */
export async function findDependencyCycle(
  client: KubeClient,
  self: {
    apiVersion: string;
    kind: string;
    metadata: { name?: string; namespace?: string };
    spec: { dependsOn?: DependencyReference[] };
  },
  sameNamespaceOnly = false,
): Promise<string[] | undefined> {
  const kind = DEPENDENT_KINDS.find((k) => k.kind === self.kind && k.group === groupOf(self.apiVersion));
  if (!kind) return undefined;
  const start: Node = { kind, namespace: self.metadata.namespace!, name: self.metadata.name! };
  const startId = idOf(start);
  const seen = new Set<string>([startId]);
  let reads = 0;
  const read = async (n: Node): Promise<DependencyReference[]> => {
    if (++reads > MAX_NODES) return [];
    try {
      const obj = await client.get<{ spec?: { dependsOn?: DependencyReference[] } }>(
        pathOf(n.kind, n.namespace, n.name),
      );
      return obj.spec?.dependsOn ?? [];
    } catch (err) {
      if (err instanceof NotFoundError) return [];
      throw err;
    }
  };
  // Depth first, the path so far kept, so the chain is named in the order it is walked.
  const walk = async (n: Node, deps: DependencyReference[], path: string[]): Promise<string[] | undefined> => {
    for (const dep of deps) {
      const next = edgeOf(n, dep);
      if (!next || (sameNamespaceOnly && next.namespace !== start.namespace)) continue;
      const id = idOf(next);
      if (id === startId) return [...path, id];
      if (seen.has(id) || reads >= MAX_NODES) continue;
      seen.add(id);
      const found = await walk(next, await read(next), [...path, id]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(start, self.spec.dependsOn ?? [], [startId]);
}
