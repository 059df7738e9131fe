// Strategic merge as kustomize (kyaml merge2) does it: walk target and patch together, every field
// of both (so lists the patch does not touch are normalised too); maps merge, scalars and lists
// without a merge strategy are replaced, merged lists go element by element (keyed-list.ts),
// `key: null` deletes, and only `$patch` directives are honoured (`$setElementOrder` and friends
// are kept as ordinary fields, exactly as kustomize leaves them). A value the target lacks is
// merged with itself, as kyaml does, so its directives and lists get the same treatment.
import { KustomizeError } from "../errors.js";
import type { JsonObject } from "../resource.js";
import type { Json } from "../yaml/emit.js";
import { type ElementResult, mergeKeyedList, mergeScalarList } from "./keyed-list.js";
import { isMap } from "./list-elements.js";
import { definitionOfType, type FieldSchema, fieldOf } from "./schema.js";
import { copyNotes, isQuoted, notesOf, rawText, type ScalarNote, setNote } from "../yaml/scalar-style.js";
import { sharedAt, type SharedWrites, writeShared } from "../yaml/shared-nodes.js";

type Directive = "delete" | "replace" | "merge" | undefined;

function mapDirective(v: JsonObject): Directive {
  if (v.$patch === undefined) return undefined;
  const d = v.$patch === null ? "" : String(v.$patch);
  if (d !== "delete" && d !== "replace" && d !== "merge") throw new KustomizeError(`unknown patch strategy '${d}'`);
  return d;
}

function withoutDirective(v: JsonObject): JsonObject {
  const { $patch: _d, ...rest } = v;
  copyNotes(v, rest);
  return rest;
}

const isScalar = (v: Json | undefined): boolean => v !== undefined && (v === null || typeof v !== "object");

/**
 * A scalar field both sides hold: the patch's value in the target's style (kyaml's FieldSetter
 * keeps the field's style), so a quoted target makes the patch's text a string.
 */
function replaceScalar(out: JsonObject, key: string, target: JsonObject, patch: JsonObject): void {
  const quoted = isQuoted(target, key);
  const note = notesOf(patch)?.get(key);
  if (quoted && out[key] !== null) out[key] = rawText(patch, key);
  const written: ScalarNote = note?.raw !== undefined && !quoted ? { quoted, raw: note.raw } : { quoted };
  // A field holding a shared node (a labels/annotations value) is written in place: every field
  // holding that node takes the value (scalar-style.ts).
  const shared = sharedAt(target, key);
  if (shared) {
    written.shared = shared;
    (sharedWrites ??= new Map()).set(shared, { value: out[key]!, note: written });
  }
  setNote(out, key, written);
}

/** Writes to shared nodes during the current merge, applied to the whole result at its end. */
let sharedWrites: SharedWrites | undefined;

/** The notes of a merged map: each key's from the side its value came from. */
function noteMerged(out: JsonObject, target: JsonObject, patch: JsonObject | undefined): void {
  const tn = notesOf(target);
  const pn = patch && patch !== target ? notesOf(patch) : undefined;
  if (tn) copyNotes(target, out);
  if (!patch || patch === target) return;
  for (const key of Object.keys(patch)) {
    if (!Object.hasOwn(out, key)) continue;
    if (isScalar(target[key]) && isScalar(patch[key])) replaceScalar(out, key, target, patch);
    else if (target[key] === undefined) setNote(out, key, pn?.get(key));
  }
}

/** A list's directive is an element holding only `$patch`; kyaml then drops every such element. */
function listDirective(list: Json[]): { directive: Directive; rest: Json[] } {
  const el = list.find((e) => isMap(e) && e.$patch !== undefined) as JsonObject | undefined;
  if (!el || Object.keys(el).length > 1) return { directive: undefined, rest: list };
  const directive = mapDirective(el);
  const rest = list.filter((e) => e !== null && !(isMap(e) && (Object.keys(e).length === 0 || e.$patch === el.$patch)));
  return { directive, rest };
}

function kindOf(v: Json | undefined): "map" | "list" | "scalar" | undefined {
  if (v === undefined || v === null) return undefined;
  return Array.isArray(v) ? "list" : typeof v === "object" ? "map" : "scalar";
}

/** A nested object with apiVersion and kind gets that type's schema when its field has none. */
function schemaOf(sources: (Json | undefined)[]): string | undefined {
  for (const s of sources)
    if (isMap(s) && typeof s.apiVersion === "string" && typeof s.kind === "string" && s.apiVersion && s.kind) {
      const def = definitionOfType(s.apiVersion, s.kind);
      if (def) return def;
    }
  return undefined;
}

/** Walks a map; `into` says whether the result replaced the target's node or the patch's. */
function walkMap(t: Json | undefined, p: Json | undefined, def: string | undefined): ElementResult {
  def ??= schemaOf([t, p]);
  const alias = p !== undefined && t === p;
  let directive: Directive;
  let elided: JsonObject | undefined;
  if (isMap(p)) {
    directive = mapDirective(p);
    if (directive) p = elided = withoutDirective(p);
    if (alias) t = p;
  }
  const result = (value: Json | undefined, into: ElementResult["into"]): ElementResult =>
    elided ? { value, into, patch: elided } : { value, into };
  let dest: JsonObject;
  let into: ElementResult["into"] = "target";
  if (!isMap(t)) {
    if (!isMap(p)) return result(p === undefined && t === null ? null : undefined, into);
    if (directive === "delete") return result(undefined, into);
    t = dest = p;
    into = "patch";
  } else if (p === null || directive === "delete") {
    return result(undefined, into);
  } else if (directive === "replace" && !alias) {
    t = dest = p as JsonObject;
    into = "patch";
  } else dest = t;
  const patch = isMap(p) ? p : undefined;
  const out: JsonObject = {};
  for (const key of new Set([...Object.keys(dest), ...Object.keys(patch ?? {})])) {
    const v = walk(dest[key], patch?.[key], fieldOf(def, key));
    if (v !== undefined) out[key] = v;
  }
  noteMerged(out, dest, patch);
  return result(out, into);
}

function walkList(t: Json[] | null | undefined, p: Json | undefined, field: FieldSchema | undefined): Json | undefined {
  const merge = field?.merge;
  if (!merge) return p === undefined ? (t ?? undefined) : (p ?? undefined);
  if (!Array.isArray(t)) return Array.isArray(p) ? mergeList(p, p, merge.keys, field.def) : undefined;
  if (p === null) return undefined;
  if (!Array.isArray(p)) return mergeList(t, [], merge.keys, field.def);
  const { directive, rest } = listDirective(p);
  if (directive === "delete") return undefined;
  // The directive is dropped from the patch list itself, which is also the target when merged with itself.
  if (directive === "replace" || t === p) return mergeList(rest, rest, merge.keys, field.def);
  return mergeList(t, rest, merge.keys, field.def);
}

function mergeList(target: Json[], patch: Json[], keys: string[], def: string | undefined): Json[] {
  if (keys.length === 0) return mergeScalarList(target, patch);
  return mergeKeyedList(target, patch, keys, (t, p) => walkMap(t, p, def));
}

function walk(t: Json | undefined, p: Json | undefined, field: FieldSchema | undefined): Json | undefined {
  const kind = kindOf(t) ?? kindOf(p);
  const other = kindOf(t) ? kindOf(p) : undefined;
  if (other && other !== kind)
    throw new KustomizeError(`strategic merge: cannot merge a ${other} into a ${kind} (${JSON.stringify(p)})`);
  if (kind === "list") return walkList(t as Json[] | null | undefined, p, field);
  if (kind === "map" || kind === undefined) return walkMap(t, p, field?.def).value;
  return p === undefined ? t : (p ?? undefined);
}

/** Applies a strategic merge patch; returns undefined when the patch deletes the whole object. */
export function strategicMerge(target: JsonObject, patch: JsonObject): JsonObject | undefined {
  sharedWrites = undefined;
  const merged = walkMap(target, patch, undefined).value;
  if (sharedWrites && isMap(merged)) writeShared(merged, sharedWrites);
  sharedWrites = undefined;
  return isMap(merged) ? merged : undefined;
}
