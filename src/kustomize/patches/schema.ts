// Kubernetes patch merge keys and strategies by type, from the table generated from a real
// apiserver's OpenAPI (scripts/gen-k8s-schema.mjs).
import schema from "../schema/k8s-schema.json" with { type: "json" };

type FieldInfo = [ref: string, list: number, mergeKey: string, strategy: string];
const table = schema as unknown as {
  kinds: Record<string, [string, number]>;
  defs: Record<string, Record<string, FieldInfo>>;
};

export interface FieldSchema {
  /** Definition of the field's value (or of a list's items). */
  def?: string;
  list: boolean;
  mergeKey?: string;
  strategy: string;
}

export function definitionOf(group: string, version: string, kind: string): string | undefined {
  return table.kinds[`${group}/${version}/${kind}`]?.[0];
}

export function fieldOf(def: string | undefined, field: string): FieldSchema | undefined {
  const f = def ? table.defs[def]?.[field] : undefined;
  if (!f) return undefined;
  return { def: f[0] || undefined, list: f[1] === 1, mergeKey: f[2] || undefined, strategy: f[3] };
}
