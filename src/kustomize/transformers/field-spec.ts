// Field specs, kustomize's way of saying "this field of these kinds": an optional group/version/kind
// filter and a slash-separated path, where a list on the way is walked element by element
// (`spec/template/spec/containers/image`, or explicitly `containers[]`).
import type { JsonObject, Resource } from "../resource.js";
import { groupVersion, kindOf } from "../resource.js";
import type { Json } from "../yaml/emit.js";

export interface FieldSpec {
  group?: string;
  version?: string;
  kind?: string;
  path: string;
  create?: boolean;
}

/**
 * kustomize's isMatchGVK: the current kind, group and version; an empty one selects any. Transformers
 * that select by the id an object was read with (prefix/suffix, name references) pass its original kind.
 */
export function specMatches(fs: FieldSpec, r: Resource, kind = kindOf(r)): boolean {
  const gv = groupVersion(r);
  if (fs.kind && fs.kind !== kind) return false;
  if (fs.group && fs.group !== gv.group) return false;
  if (fs.version && fs.version !== gv.version) return false;
  return true;
}

export type Visit = (parent: JsonObject, key: string) => void;

/** Calls `visit(parent, lastKey)` for every place the path reaches (creating maps when asked). */
export function walkPath(node: Json, segments: string[], create: boolean, visit: Visit): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const item of node) walkPath(item, segments, create, visit);
    return;
  }
  const [head, ...rest] = segments;
  if (head === undefined) return;
  // A `name[]` segment is only looked up, never created (kustomize's fieldspec filter).
  const seq = head.endsWith("[]");
  const key = seq ? head.slice(0, -2) : head;
  if (rest.length === 0) {
    if (node[key] !== undefined || (create && !seq)) visit(node, key);
    return;
  }
  if (node[key] === undefined || node[key] === null) {
    if (!create || seq) return;
    node[key] = {};
  }
  walkPath(node[key]!, rest, create, visit);
}

/** Splits a field path on "/", where "\\/" is a literal slash (annotation keys). */
export function splitPath(path: string): string[] {
  return path.split(/(?<!\\)\//).map((p) => p.replaceAll("\\/", "/"));
}

export function applySpecs(
  resources: Resource[],
  specs: FieldSpec[],
  visit: (r: Resource, parent: JsonObject, key: string) => void,
): void {
  for (const r of resources) {
    for (const fs of specs) {
      if (!specMatches(fs, r)) continue;
      walkPath(r.obj, splitPath(fs.path), fs.create ?? false, (parent, key) => visit(r, parent, key));
    }
  }
}
