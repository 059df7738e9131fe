// What strategic merge knows about Kubernetes types: the table scripts/gen-merge-schema.mjs takes
// from the OpenAPI document kustomize embeds (Kubernetes 1.21), not from a newer apiserver, so a
// list merges exactly when kustomize merges it.
import schema from "../schema/merge-schema.json" with { type: "json" };

type FieldInfo = [ref: string] | [ref: string, strategy: string, keys: string[]];
const table = schema as unknown as {
  kinds: Record<string, string>;
  defs: Record<string, Record<string, FieldInfo>>;
};

export interface FieldSchema {
  /** Definition of the field's value (or of a list's items). */
  def?: string;
  /** Set for a list kustomize merges element by element (patch strategy "merge"). */
  merge?: { strategy: string; keys: string[] };
}

/** The definition for an object's apiVersion and kind, as kyaml looks it up (exact apiVersion). */
export function definitionOfType(apiVersion: string, kind: string): string | undefined {
  return table.kinds[`${apiVersion} ${kind}`];
}

export function fieldOf(def: string | undefined, field: string): FieldSchema | undefined {
  const fields = def ? table.defs[def] : undefined;
  const f = fields?.[field] ?? fields?.["*"];
  if (!f) return undefined;
  return { def: f[0] || undefined, merge: f.length === 3 ? { strategy: f[1], keys: f[2] } : undefined };
}
