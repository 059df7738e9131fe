// The inventory of what a Kustomization applied, in Flux's format: entries `{id, v}` with
// id `<namespace>_<name>_<group>_<kind>` and v the API version. Colons in RBAC names are encoded as
// `__` so the id splits unambiguously.
import type { Inventory, InventoryEntry } from "../api/meta/inventory.js";
import { FlotillaError } from "../util/errors.js";
import type { ChangeSetEntry } from "./changeset.js";

export interface ObjMetadata {
  namespace: string;
  name: string;
  group: string;
  kind: string;
}

const RBAC_KINDS = new Set(["Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"]);

export function inventoryId(m: ObjMetadata): string {
  const name =
    m.group === "rbac.authorization.k8s.io" && RBAC_KINDS.has(m.kind) ? m.name.replaceAll(":", "__") : m.name;
  return `${m.namespace}_${name}_${m.group}_${m.kind}`;
}

export class InventoryParseError extends FlotillaError {
  override name = "InventoryParseError";
}

export function parseInventoryId(id: string): ObjMetadata {
  const first = id.indexOf("_");
  const last = id.lastIndexOf("_");
  const beforeLast = id.lastIndexOf("_", last - 1);
  if (first < 0 || beforeLast <= first) throw new InventoryParseError(`unable to parse stored object metadata: ${id}`);
  const name = id.slice(first + 1, beforeLast).replaceAll("__", ":");
  if (name.includes("_")) throw new InventoryParseError(`too many fields within: ${id}`);
  return { namespace: id.slice(0, first), name, group: id.slice(beforeLast + 1, last), kind: id.slice(last + 1) };
}

/** Inventory of a change set, in its order; skipped and unchanged objects are part of it. */
export function inventoryFromChangeSet(entries: ChangeSetEntry[]): Inventory {
  return { entries: entries.map((e) => ({ id: inventoryId(e), v: e.version })) };
}

/** Entries of `previous` that `next` no longer has (version ignored): candidates for pruning. */
export function staleEntries(previous: Inventory | undefined, next: Inventory): InventoryEntry[] {
  const keep = new Set(next.entries.map((e) => e.id));
  return (previous?.entries ?? []).filter((e) => !keep.has(e.id));
}

/** A minimal object reference for an inventory entry. */
export function refFromEntry(e: InventoryEntry): {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
} {
  const m = parseInventoryId(e.id);
  return {
    apiVersion: m.group ? `${m.group}/${e.v}` : e.v,
    kind: m.kind,
    metadata: m.namespace ? { name: m.name, namespace: m.namespace } : { name: m.name },
  };
}
