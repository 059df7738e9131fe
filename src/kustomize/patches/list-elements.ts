// The element primitives kyaml builds its list merge from, on JSON values. kyaml compares scalars
// by their text and treats a missing or empty key field as "", and its element setter replaces
// *every* element that matches (dropping empty ones on the way); the merge's quirks follow from
// these rules, so they are reproduced as they are.
import { KustomizeError } from "../errors.js";
import type { JsonObject } from "../resource.js";
import type { Json } from "../yaml/emit.js";

export const isMap = (v: Json | undefined): v is JsonObject =>
  v !== null && v !== undefined && typeof v === "object" && !Array.isArray(v);

/** A YAML node's text: a scalar's own text, "" for maps and lists. */
export function scalarText(v: Json): string {
  if (v === null) return "null";
  if (typeof v === "object") return "";
  return String(v);
}

/** The element's value for each key; "" where the field is missing, null or empty. */
export function tupleOf(elem: Json, keys: string[]): string[] {
  return keys.map((k) => {
    const v = isMap(elem) ? elem[k] : undefined;
    return v === undefined || v === null || typeof v === "object" ? "" : String(v);
  });
}

/** The first map element whose fields equal `values` (text, field present) for all `keys`. */
export function findElement(list: Json[], keys: string[], values: string[]): number {
  return list.findIndex((e) => isMap(e) && keys.every((k, i) => e[k] !== undefined && scalarText(e[k]!) === values[i]));
}

function isEmpty(e: Json): boolean {
  return e === null || (isMap(e) && Object.keys(e).length === 0);
}

/** kyaml's field matcher: "" matches a present field of any value, anything else its text. */
function fieldMatches(e: JsonObject, key: string, value: string): boolean {
  if (e[key] === undefined) return false;
  return value === "" || scalarText(e[key]!) === value;
}

/**
 * Sets `element` in place of every element matching `keys`/`values` (or appends it), or removes
 * the matches when `element` is undefined. Keys beyond `values` reuse the last comparison, and no
 * values at all matches nothing and keeps nothing, as in kyaml.
 */
export function setElement(list: Json[], element: Json | undefined, keys: string[], values: string[]): Json[] {
  const mappingSetter = keys.length > 0 && keys[0] !== "" && values.length > 0 && values[0] !== "";
  const out: Json[] = [];
  let found = false;
  for (const e of list) {
    if (isEmpty(e)) continue;
    if (!isMap(e)) {
      if (mappingSetter) {
        out.push(e);
        continue;
      }
      throw new KustomizeError(`wrong node kind: expected MappingNode but got ${JSON.stringify(e)}`);
    }
    let matched = false;
    for (let j = 0; j < keys.length; j++) {
      if (j < values.length) matched = fieldMatches(e, keys[j]!, values[j]!);
      if (!matched) break;
    }
    if (!matched) {
      if (values.length > 0) out.push(e);
      continue;
    }
    found = true;
    if (element !== undefined) out.push(element);
  }
  // A null element replaces the matches but is never appended (kyaml's "missing or null").
  if (element !== undefined && element !== null && !found) out.push(element);
  return out;
}
