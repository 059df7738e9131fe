// REST paths of the Kubernetes API: `/api/v1/...` for the core group, `/apis/<group>/<version>/...`
// otherwise. Every path flotilla requests is built here, from the table of kinds or from what
// discovery found.
import { type KindEntry, storageVersion } from "./kinds.js";

export interface ResourcePath {
  group: string;
  version: string;
  /** The plural resource name; without it, the group-version's discovery document. */
  resource?: string;
  /** Left out for cluster-scoped kinds, and for a collection across all namespaces. */
  namespace?: string;
  name?: string;
  subresource?: string;
}

export function apiPath(p: ResourcePath): string {
  let path = p.group ? `/apis/${p.group}/${p.version}` : `/api/${p.version}`;
  if (!p.resource) return path;
  // Names and namespaces come from manifests: escaped, so a '/' cannot add path segments.
  if (p.namespace) path += `/namespaces/${encodeURIComponent(p.namespace)}`;
  path += `/${p.resource}`;
  if (p.name === undefined) return path;
  path += `/${encodeURIComponent(p.name)}`;
  return p.subresource ? `${path}/${p.subresource}` : path;
}

/**
 * Path of an object of a kind in the table (its stored version), or of the collection when the
 * name is left out; a namespaced kind without a namespace is the collection across namespaces.
 */
export function pathOf(kind: KindEntry, namespace?: string, name?: string, subresource?: string): string {
  return apiPath({
    group: kind.group,
    version: storageVersion(kind),
    resource: kind.plural,
    namespace: kind.scope === "Namespaced" ? namespace : undefined,
    name,
    subresource,
  });
}
