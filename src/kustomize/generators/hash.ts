// kustomize's content-hash name suffix for generated ConfigMaps and Secrets: sha256 of a Go
// json.Marshal encoding of {kind, name, data, ...}, hex, first 10 characters with 0,1,3,a,e mapped
// to g,h,k,m,t (so the suffix never looks like a number or a word-ish hex string).
import { createHash } from "node:crypto";
import type { JsonObject } from "../resource.js";
import type { Json } from "../yaml/emit.js";

/** Go's encoding/json: sorted keys, no spaces, and <, >, &, U+2028, U+2029 escaped. */
function goJson(value: Json): string {
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") {
    return JSON.stringify(value).replace(
      /[<>&\u2028\u2029]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  }
  if (Array.isArray(value)) return `[${value.map(goJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${goJson(k)}:${goJson(value[k]!)}`).join(",")}}`;
}

function encodeSuffix(hex: string): string {
  const map: Record<string, string> = { "0": "g", "1": "h", "3": "k", a: "m", e: "t" };
  return [...hex.slice(0, 10)].map((c) => map[c] ?? c).join("");
}

/**
 * kustomize hashes only these fields, a missing one as "" (api/hasher). Its lookup of the name asks
 * for a single field literally called "metadata/name", which never exists — so the name always
 * hashes as "". We reproduce that: the suffix must match kustomize's byte for byte.
 */
export function hashSuffix(obj: JsonObject): string {
  const isMap = (v: Json | undefined) => v !== null && typeof v === "object" && !Array.isArray(v);
  const m: JsonObject = { kind: obj.kind as string, name: "", data: obj.data ?? "" };
  if (obj.kind === "Secret") {
    m.type = obj.type ?? "";
    if (isMap(obj.stringData)) m.stringData = obj.stringData!;
  } else if (isMap(obj.binaryData)) m.binaryData = obj.binaryData!;
  return encodeSuffix(createHash("sha256").update(goJson(m)).digest("hex"));
}
