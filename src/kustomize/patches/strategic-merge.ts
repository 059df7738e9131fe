// Strategic merge as kustomize (kyaml merge2) does it: maps merge, scalars and unkeyed lists are
// replaced, lists with a merge strategy merge by key with the patch's elements first, `key: null`
// deletes, and only `$patch` directives are honoured (`$setElementOrder` and friends are kept as
// ordinary fields, exactly as kustomize leaves them).
import { KustomizeError } from "../errors.js";
import { type JsonObject, jsonText } from "../resource.js";
import type { Json } from "../yaml/emit.js";
import { fieldOf } from "./schema.js";

const isMap = (v: Json | undefined): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);
const DELETE = Symbol("delete");

function directive(v: Json): string | undefined {
  if (!isMap(v) || v.$patch === undefined) return undefined;
  const d = String(v.$patch);
  if (!["delete", "replace", "merge"].includes(d)) throw new KustomizeError(`unknown patch strategy '${d}'`);
  return d;
}

function withoutDirective(v: JsonObject): JsonObject {
  const { $patch: _d, ...rest } = v;
  return rest;
}

/** A patch value added where the target has nothing: nulls dropped, directives applied to nothing. */
function fresh(v: Json, def: string | undefined): Json {
  if (isMap(v)) return mergeMaps({}, v, def) as Json;
  if (Array.isArray(v))
    return v
      .filter((e) => !(isMap(e) && (e.$patch === "delete" || e.$patch === "replace")))
      .map((e) => (isMap(e) ? fresh(withoutDirective(e), undefined) : e));
  return v;
}

function mergeList(target: Json[], patch: Json[], mergeKey: string | undefined, itemDef: string | undefined): Json[] {
  const replaceAt = patch.findIndex((e) => isMap(e) && e.$patch === "replace");
  if (replaceAt >= 0) return patch.filter((_, i) => i !== replaceAt).map((e) => fresh(e, itemDef));
  if (!mergeKey) {
    // A merge list of primitives: the patch's values first, then the target's others.
    const out = [...patch];
    for (const t of target) if (!out.some((p) => jsonText(p) === jsonText(t))) out.push(t);
    return out;
  }
  const keyOf = (e: Json) => (isMap(e) ? jsonText(e[mergeKey] ?? null) : undefined);
  const used = new Set<number>();
  const out: Json[] = [];
  for (const p of patch) {
    const idx = target.findIndex((t, i) => !used.has(i) && keyOf(t) !== undefined && keyOf(t) === keyOf(p));
    if (idx >= 0) used.add(idx);
    if (isMap(p) && p.$patch === "delete") continue;
    if (idx >= 0) {
      const merged = mergeValue(target[idx]!, p, itemDef);
      if (merged !== DELETE) out.push(merged);
    } else out.push(fresh(p, itemDef));
  }
  target.forEach((t, i) => {
    if (!used.has(i)) out.push(t);
  });
  return out;
}

function mergeValue(target: Json, patch: Json, def: string | undefined): Json | typeof DELETE {
  if (isMap(patch)) {
    const d = directive(patch);
    if (d === "delete") return DELETE;
    if (d === "replace") return fresh(withoutDirective(patch), def);
    if (!isMap(target)) return fresh(withoutDirective(patch), def);
    return mergeMaps(target, withoutDirective(patch), def);
  }
  return patch;
}

function mergeMaps(target: JsonObject, patch: JsonObject, def: string | undefined): JsonObject {
  const out: JsonObject = { ...target };
  for (const [key, pv] of Object.entries(patch)) {
    if (key === "$patch") continue;
    if (pv === null) {
      delete out[key];
      continue;
    }
    const field = fieldOf(def, key);
    const tv = out[key];
    if (Array.isArray(pv)) {
      const strategy = field?.strategy ?? "";
      if (Array.isArray(tv) && field?.list && strategy.includes("merge"))
        out[key] = mergeList(tv, pv, field.mergeKey, field.def);
      else out[key] = fresh(pv, field?.def);
      continue;
    }
    if (tv === undefined || tv === null) {
      const v = fresh(pv, field?.def);
      if (!(isMap(pv) && directive(pv) === "delete")) out[key] = v;
      continue;
    }
    const merged = mergeValue(tv, pv, field?.def);
    if (merged === DELETE) delete out[key];
    else out[key] = merged;
  }
  return out;
}

/** Applies a strategic merge patch; returns undefined when the patch deletes the whole object. */
export function strategicMerge(target: JsonObject, patch: JsonObject, def: string | undefined): JsonObject | undefined {
  const merged = mergeValue(target, patch, def);
  return merged === DELETE ? undefined : (merged as JsonObject);
}
