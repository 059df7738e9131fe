// Renaming a resource (prefix, suffix, hash, namespace) remembers its previous id, so references to
// it can be rewritten at the end of the build.
import { kindOf, meta, nameOf, namespaceOf, type Resource } from "../resource.js";

export function rename(r: Resource, change: { name?: string; namespace?: string }): void {
  const name = change.name ?? nameOf(r);
  const namespace = change.namespace ?? namespaceOf(r);
  if (name === nameOf(r) && namespace === namespaceOf(r)) return;
  r.previous.push({ kind: kindOf(r), name: nameOf(r), namespace: namespaceOf(r) });
  meta(r).name = name;
  if (change.namespace !== undefined) meta(r).namespace = namespace;
}
