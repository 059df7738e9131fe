// Renaming a resource (prefix, suffix, hash, namespace, patch) remembers its previous id, so references
// to it can be rewritten at the end of the build. kustomize stores the id wherever it *may* rename
// (every object a namespace or JSON patch touches), even when nothing changes: name references
// count those objects as renamed, so storePreviousId is called in the same places.
import { kindOf, meta, nameOf, namespaceOf, type Resource } from "../resource.js";

export function storePreviousId(r: Resource): void {
  r.previous.push({ kind: kindOf(r), name: nameOf(r), namespace: namespaceOf(r) });
}

export function rename(r: Resource, change: { name?: string; namespace?: string }): void {
  const name = change.name ?? nameOf(r);
  const namespace = change.namespace ?? namespaceOf(r);
  if (name === nameOf(r) && namespace === namespaceOf(r)) return;
  storePreviousId(r);
  meta(r).name = name;
  if (change.namespace !== undefined) meta(r).namespace = namespace;
}

/** The kind a resource was read with: kustomize selects transformers' targets by this original id. */
export const originalKind = (r: Resource): string => r.previous[0]?.kind ?? kindOf(r);
