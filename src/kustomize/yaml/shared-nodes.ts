// Value nodes kyaml holds in several fields. kyaml's labels and annotations transformers build one
// value node per resource and key and put that same node into every field they create (metadata,
// selectors, templates); a later in-place write to any of those fields (a strategic merge patch, a
// replacement, another labels transformer over an existing key) changes them all. The fields holding
// one shared node carry the same token in their note (scalar-style.ts); writeShared gives the others
// the written value. A JSON round trip (a JSON 6902 patch) or any rebuild without notes ends the
// sharing, as it makes new nodes in kyaml.
import type { Json } from "./emit.js";
import { notesOf, type ScalarNote, type SharedNode } from "./scalar-style.js";

export type { SharedNode };

/** In-place writes to shared nodes: the value and note each node was given. */
export type SharedWrites = Map<SharedNode, { value: Json; note: ScalarNote }>;

/** The shared node held at c[key], if any. */
export const sharedAt = (c: object, key: string | number): SharedNode | undefined => notesOf(c)?.get(key)?.shared;

/**
 * After in-place writes to shared nodes: every field of `root` holding one of `writes`' nodes takes
 * the value and note written there (kyaml changed the one node they all hold).
 */
export function writeShared(root: Json, writes: SharedWrites): void {
  if (root === null || typeof root !== "object") return;
  const m = notesOf(root);
  if (m) {
    for (const [key, note] of m) {
      const w = note.shared && writes.get(note.shared);
      // A note can outlive its field (a merge copies a map's notes, then drops deleted keys).
      if (!w || !Object.hasOwn(root, key)) continue;
      (root as Record<string | number, Json>)[key] = w.value;
      m.set(key, w.note);
    }
  }
  if (Array.isArray(root)) for (const v of root) writeShared(v, writes);
  else for (const k in root) writeShared(root[k]!, writes);
}
