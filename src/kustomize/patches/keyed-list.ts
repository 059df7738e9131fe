// How kyaml merges a list whose schema says "merge" (kustomize patches prepend: the patch's
// elements come first). Elements are identified by the tuple of their merge-key values; with
// several keys (container ports: containerPort+protocol) tuples that differ only where one is
// empty count as the same element, and every target element is finally set back by its own keys,
// so a target port without `protocol` wins over a patch port that names one. A merged target
// element is updated in place, which is what the final pass sets back.
import { KustomizeError } from "../errors.js";
import { findElement, isMap, scalarText, setElement, tupleOf } from "./list-elements.js";
import type { Json } from "../yaml/emit.js";
import { resolvePlain } from "../yaml/plain-scalars.js";

/** Where an element walk wrote its result: into the target's element, or into the patch's. */
export interface ElementResult {
  value: Json | undefined;
  into: "target" | "patch";
  /** The patch's element once its `$patch` directive was taken off (kyaml edits it in place). */
  patch?: Json;
}
export type ElementWalk = (target: Json | undefined, patch: Json | undefined) => ElementResult;

/** Distinct key tuples of the patch's elements, then of the target's (kyaml skips nothing else). */
function uniqueTuples(lists: Json[][], keys: string[]): string[][] {
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const list of lists)
    for (const e of list) {
      const t = tupleOf(e, keys);
      const id = JSON.stringify(t);
      if (!seen.has(id)) {
        seen.add(id);
        out.push(t);
      }
    }
  return out;
}

/** Two tuples name the same element when they share a value and differ only where one is empty. */
function combine(a: string[], b: string[]): string[] | undefined {
  let common = false;
  const out: string[] = [];
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) common = true;
    else if (a[i] !== "" && b[i] !== "") return undefined;
    out.push(a[i] !== "" ? a[i]! : b[i]!);
  }
  return common ? out : undefined;
}

/** Fills empty key values from matching tuples, pairwise in kyaml's order (duplicates remain). */
function mergeTuples(tuples: string[][]): string[][] {
  for (let i = 0; i < tuples.length; i++) {
    const first = tuples[i]!;
    for (let j = 0; j < tuples.length; j++) {
      const both = combine(first, tuples[j]!);
      if (both) tuples[i] = tuples[j] = both;
    }
  }
  return tuples;
}

/** The keys any tuple has a value for (all keys when none has), with this tuple's values for them. */
function validKeys(all: string[][], tuple: string[], keys: string[]): { keys: string[]; values: string[] } {
  const used = new Set<string>();
  for (const t of all) t.forEach((v, i) => v !== "" && used.add(keys[i]!));
  if (used.size === 0) return { keys, values: tuple };
  return { keys: keys.filter((k) => used.has(k)), values: tuple.filter((_, i) => used.has(keys[i]!)) };
}

/** kyaml's final pass: each target element set back by its own key values. */
function setTargetsBack(items: Json[], dest: Json[], keys: string[]): Json[] {
  for (const elem of [...dest]) {
    const values: string[] = [];
    for (const k of keys) {
      // An element without the key is appended as it is (and then wipes what came before).
      if (elem !== null && !isMap(elem))
        throw new KustomizeError(`wrong node kind: expected MappingNode but got ${JSON.stringify(elem)}`);
      if (elem === null || elem[k] === undefined) items.push(elem);
      else values.push(scalarText(elem[k]!));
    }
    if (keys.length > 1) items = setElement(items, undefined, keys, values);
    items = setElement(items, elem, keys, values);
  }
  return items;
}

/**
 * Merges `patch` into `target` by `keys`. `target === patch` is kyaml's merge of a list into a
 * missing field (the patch list merged with itself).
 */
export function mergeKeyedList(target: Json[], patch: Json[], keys: string[], walk: ElementWalk): Json[] {
  const dest = [...target];
  const src = target === patch ? dest : [...patch];
  const tuples = uniqueTuples([src, dest], keys);
  if (keys.length > 1) mergeTuples(tuples);
  let items: Json[] = [];
  let lastKeys = keys;
  for (const tuple of tuples) {
    const valid = validKeys(tuples, tuple, keys);
    lastKeys = valid.keys;
    const lookup = validKeys([valid.values], valid.values, valid.keys);
    const ti = findElement(dest, lookup.keys, lookup.values);
    const pi = findElement(src, lookup.keys, lookup.values);
    const { value, into, patch: elided } = walk(ti >= 0 ? dest[ti] : undefined, pi >= 0 ? src[pi] : undefined);
    if (elided !== undefined && pi >= 0) src[pi] = elided;
    if (value === undefined || value === null || (isMap(value) && Object.keys(value).length === 0)) {
      dest.splice(0, dest.length, ...setElement(dest, undefined, valid.keys, valid.values));
      continue;
    }
    if (into === "target" && ti >= 0) dest[ti] = value;
    else if (pi >= 0) src[pi] = value;
    if (isMap(value))
      valid.keys.forEach((k, i) => {
        if (value[k] === undefined && valid.values[i] !== "") value[k] = resolvePlain(valid.values[i]!);
      });
    items = setElement(items, value, valid.keys, valid.values);
  }
  return tuples.length > 0 ? setTargetsBack(items, dest, lastKeys) : items;
}

/**
 * A merged list of scalars (finalizers): distinct values, the patch's first; a value the target
 * has keeps the target's spelling; nulls and empty maps are dropped.
 */
export function mergeScalarList(target: Json[], patch: Json[]): Json[] {
  const dropped = (v: Json) => v === null || (isMap(v) && Object.keys(v).length === 0);
  target = target.filter((v) => !dropped(v));
  patch = patch.filter((v) => !dropped(v));
  const byText = new Map<string, Json>();
  for (const v of [...patch, ...target]) {
    if (typeof v === "object" && v !== null)
      throw new KustomizeError(`wrong node kind: expected ScalarNode but got ${JSON.stringify(v)}`);
    const text = scalarText(v);
    if (!byText.has(text)) byText.set(text, v);
  }
  for (const v of target) if (byText.has(scalarText(v))) byText.set(scalarText(v), v);
  return [...byText.values()];
}
