// fluxcd/pkg chartutil.DigestValues: sha256 of the values as go-yaml v2 writes them after
// sigs.k8s.io/yaml's JSONObjectToYAMLObject and SortMapSlice — keys sorted by Go's byte-wise string
// order at every level (not go-yaml's natural order), numbers as float64 that print as integers when
// whole, and nothing at all for empty values. status.history[].configDigest holds it, so a change of
// a single value (and nothing else) makes the next reconcile upgrade.
import { createHash } from "node:crypto";
import { type Json, toYaml } from "../../../kustomize/yaml/emit.js";

/** Go's `a < b` on strings compares UTF-8 bytes; JavaScript's compares UTF-16 code units. */
const byteOrder = (keys: string[]): string[] =>
  [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

/**
 * Values as Go holds them after JSON: every number a float64 (a bigint from a YAML reader rounds to
 * one, as helm's JSON round trip rounds it); the printer writes whole ones as Go's integers.
 */
function asGo(v: unknown): Json {
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number") return v;
  if (Array.isArray(v)) return v.map(asGo);
  if (v !== null && typeof v === "object") {
    const out: Record<string, Json> = {};
    for (const [k, x] of Object.entries(v)) out[k] = x === undefined ? null : asGo(x);
    return out;
  }
  if (v === undefined) return null;
  return v as Json;
}

/** The YAML chartutil.Encode writes for the digest (exported for tests). */
export function digestYaml(values: Record<string, unknown>): string {
  return Object.keys(values).length === 0 ? "" : toYaml(asGo(values), byteOrder);
}

/** "sha256:<hex>", as chartutil.DigestValues(digest.SHA256, values). */
export function valuesDigest(values: Record<string, unknown>): string {
  return `sha256:${createHash("sha256").update(digestYaml(values)).digest("hex")}`;
}
