// What strategic merge knows about Kubernetes types: the table scripts/gen-merge-schema.mjs takes
// from the OpenAPI document kustomize embeds (Kubernetes 1.21), not from a newer apiserver, so a
// list merges exactly when kustomize merges it.
import schema from "../schema/merge-schema.json" with { type: "json" };

import type { SchemaTable } from "./custom-schema.js";

const builtin = schema as unknown as SchemaTable;

/**
 * The schema in effect: kustomize's built-in one unless a kustomization's `openapi:` field chose a
 * custom schema (custom-schema.ts), which replaces it for the rest of that build. Builds run
 * synchronously, and build.ts restores the built-in schema when one ends.
 */
let table: SchemaTable = builtin;

/**
 * Selects the schema. `withBuiltin`: kyaml had already deferred loading its built-in schema (an
 * object was read before the custom schema was chosen), so it loads both, the built-in definitions
 * parsed last and winning where both define a name.
 */
export function useSchema(custom: SchemaTable | undefined, withBuiltin = false): void {
  table =
    custom && withBuiltin
      ? { kinds: { ...custom.kinds, ...builtin.kinds }, defs: { ...custom.defs, ...builtin.defs } }
      : (custom ?? builtin);
}

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
