// What kyaml remembers about a scalar beyond its value. kyaml edits YAML nodes, and a patch or a
// transformer that replaces a map field's scalar keeps the field's old style (FieldSetter) but takes
// the new node's text; kustomize then prints through JSON, so a quoted (or block) target turns any
// new scalar into a string of the new text: `targetPort: "http"` patched with `8080` gives "8080",
// with `0x1F` gives "0x1F". A node made from JSON (a JSON 6902 patch round-trips the whole object,
// generators build from data) has the style go-yaml v3 chooses for its value: quoted exactly when
// the string could not be written plain.
//
// Our resources are plain JSON, so the few facts that can differ from that default ride beside it,
// per container and key, in a WeakMap: `quoted` (the style, when not the default) and `raw` (the
// source text of a plain scalar whose value prints differently: `0x1F`, `1.0`, `True`, a timestamp).
// Objects rebuilt without notes fall back to the default, as kyaml's JSON round trips do.
//
// A note may also name a `shared` node: a value node kyaml holds in several fields (shared-nodes.ts).
import { printsPlain, type Json } from "./emit.js";

export interface ScalarNote {
  /** Written quoted or as a block (a string style), when that differs from the default. */
  quoted?: boolean;
  /** Source text of a plain scalar, when it differs from how its value prints. */
  raw?: string;
  /** Identity of a YAML node several fields of one resource hold (a labels/annotations value). */
  shared?: SharedNode;
  /**
   * A node without a tag: a field a replacement created (`options.create`). Its text is resolved
   * afresh whenever it changes, where a parsed node keeps its tag (a later replacement must fit it).
   */
  untagged?: boolean;
}

/** Token of a node held in several places; only its identity matters. */
export type SharedNode = object;

type Container = object;
type Key = string | number;

const notes = new WeakMap<Container, Map<Key, ScalarNote>>();

export const notesOf = (c: Container): Map<Key, ScalarNote> | undefined => notes.get(c);

export function setNote(c: Container, key: Key, note: ScalarNote | undefined): void {
  let m = notes.get(c);
  if (!note) {
    m?.delete(key);
    return;
  }
  if (!m) notes.set(c, (m = new Map()));
  m.set(key, note);
}

/** Gives `to` the notes of `from` (for a container rebuilt with the same keys). */
export function copyNotes(from: Container, to: Container): void {
  const m = notes.get(from);
  if (m) notes.set(to, new Map(m));
}

/** go-yaml v3 writes a string quoted or as a block when it cannot be plain; kyaml then keeps that style. */
export const defaultQuoted = (v: Json | undefined): boolean => typeof v === "string" && !printsPlain(v);

/** Does the scalar at c[key] have a string style (so a new value written there becomes a string)? */
export function isQuoted(c: Container, key: Key): boolean {
  const q = notes.get(c)?.get(key)?.quoted;
  return q ?? defaultQuoted((c as Record<Key, Json>)[key]);
}

/** The text kyaml holds for the scalar at c[key]: its source text, else its value printed. */
export function rawText(c: Container, key: Key): string {
  const raw = notes.get(c)?.get(key)?.raw;
  if (raw !== undefined) return raw;
  const v = (c as Record<Key, Json>)[key];
  return typeof v === "string" ? v : typeof v === "bigint" ? v.toString() : JSON.stringify(v);
}

/** A deep copy that keeps the notes (structuredClone would drop them). */
export function cloneJson<T extends Json>(v: T): T {
  if (v === null || typeof v !== "object") return v;
  let out: Json;
  if (Array.isArray(v)) {
    const a: Json[] = new Array<Json>(v.length);
    for (let i = 0; i < v.length; i++) a[i] = cloneJson(v[i]!);
    out = a;
  } else {
    const o: Record<string, Json> = {};
    for (const k in v) o[k] = cloneJson(v[k]!);
    out = o;
  }
  copyNotes(v, out);
  return out as T;
}
