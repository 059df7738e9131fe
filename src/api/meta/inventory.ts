// The inventory of what a Kustomization applied, in Flux's format: entries `{id, v}` with id
// `<namespace>_<name>_<group>_<kind>` and v the API version (building and reading ids: ssa/inventory.ts).

export interface InventoryEntry {
  id: string;
  v: string;
}

export interface Inventory {
  entries: InventoryEntry[];
}
