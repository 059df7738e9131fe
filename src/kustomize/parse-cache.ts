// Parsed YAML files, cached by path, size and modification time. A warm controller builds the same
// files again and again (every reconcile, every overlay sharing a base); parsing is most of a build's
// cost. Callers get their own copy, so transformers may change it freely.
import { statSync } from "node:fs";
import type { ParsedDocument, ParseOptions } from "./yaml/parse.js";
import { parseYamlDocuments } from "./yaml/parse.js";
import { cloneJson } from "./yaml/scalar-style.js";

const MAX_ENTRIES = 4096;
const cache = new Map<string, { stamp: string; docs: ParsedDocument[] }>();

export function parseFileCached(
  path: string,
  read: () => string,
  display: string,
  options: ParseOptions = {},
): ParsedDocument[] {
  const st = statSync(path);
  const stamp = `${st.size}:${st.mtimeMs}:${display}:${options.lastKeyWins ? "last" : "unique"}:${options.printedByKyaml ? "kyaml" : ""}`;
  let entry = cache.get(path);
  if (!entry || entry.stamp !== stamp) {
    entry = { stamp, docs: parseYamlDocuments(read(), display, options) };
    cache.delete(path);
    cache.set(path, entry);
    if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  }
  // cloneJson, not structuredClone: the copy keeps each scalar's style notes (scalar-style.ts).
  return entry.docs.map((d) => ({ value: cloneJson(d.value), index: d.index }));
}
