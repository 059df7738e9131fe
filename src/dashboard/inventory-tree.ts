// An inventory as a page shows it: ids (Flux's `<namespace>_<name>_<group>_<kind>`) as namespace → kind → names.
import { parseInventoryId } from "../ssa/index.js";

export function inventoryTree(ids: string[]): Record<string, Record<string, string[]>> {
  const tree: Record<string, Record<string, string[]>> = {};
  for (const id of ids) {
    const m = parseInventoryId(id);
    const ns = m.namespace || "(cluster)";
    ((tree[ns] ??= {})[m.kind] ??= []).push(m.name);
  }
  return tree;
}
