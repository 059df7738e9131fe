// Which fields refer to objects of which kind by name — kustomize's own default table
// (schema/builtin-fieldspecs.json, generated from its source by scripts/gen-fieldspecs.mjs) — so that
// renaming a ConfigMap (prefix, suffix, content hash) rewrites every reference to it.
import builtin from "../schema/builtin-fieldspecs.json" with { type: "json" };
import type { FieldSpec } from "./field-spec.js";

export interface Referral {
  /** Kind, and when given group and version, of the object referred to (unset = any). */
  kind: string;
  group?: string;
  version?: string;
  referrers: FieldSpec[];
}

interface ConfigEntry {
  kind: string;
  group?: string;
  version?: string;
  fieldSpecs?: FieldSpec[];
}

/** A `nameReference` list of a transformer configuration as referrals. */
export const referralsOf = (entries: ConfigEntry[]): Referral[] =>
  entries.map((e) => ({ kind: e.kind, group: e.group, version: e.version, referrers: e.fieldSpecs ?? [] }));

export const NAME_REFERENCES: Referral[] = referralsOf(builtin.nameReference as ConfigEntry[]);
