// helm's ReadValues (pkg/chart/common) on a ConfigMap's or Secret's values text: sigs.k8s.io/yaml, i.e.
// go-yaml v2 (YAML 1.1) then JSON. flotilla's YAML reader follows go-yaml v3 (kustomize's); the plain
// scalars the two read differently are put back here, from the notes the reader keeps: `yes`/`on`/`y`
// and their negatives are booleans, a timestamp stays the text it was written as. Numbers become
// float64 (a bigint rounds), as helm's JSON round trip makes them.
import { type Json } from "../../../kustomize/yaml/emit.js";
import { parseYamlDocuments } from "../../../kustomize/yaml/parse.js";
import { notesOf } from "../../../kustomize/yaml/scalar-style.js";

const V2_TRUE = new Set(["y", "Y", "yes", "Yes", "YES", "on", "On", "ON"]);
const V2_FALSE = new Set(["n", "N", "no", "No", "NO", "off", "Off", "OFF"]);

export class ValuesReadError extends Error {}

function asV2(container: Json[] | Record<string, Json>): void {
  const notes = notesOf(container);
  const entries: [string | number, Json][] = Array.isArray(container)
    ? container.map((v, i) => [i, v])
    : Object.entries(container);
  for (const [key, v] of entries) {
    let out: Json = v;
    if (typeof v === "bigint") out = Number(v);
    else if (typeof v === "string") {
      const note = notes?.get(key);
      if (note?.quoted === false) {
        if (note.raw !== undefined) out = note.raw;
        else if (V2_TRUE.has(v)) out = true;
        else if (V2_FALSE.has(v)) out = false;
      }
    } else if (v !== null && typeof v === "object") asV2(v);
    (container as Record<string | number, Json>)[key] = out;
  }
}

/** The values map of a values.yaml text; throws the reader's YamlSyntaxError or a ValuesReadError. */
export function readValues(text: string, source: string): Record<string, unknown> {
  const first = parseYamlDocuments(text, source).find((d) => d.index === 0);
  const value = first?.value ?? null;
  if (value === null) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw new ValuesReadError(`the values are ${Array.isArray(value) ? "a list" : "a scalar"}, not a map`);
  asV2(value);
  return value;
}
