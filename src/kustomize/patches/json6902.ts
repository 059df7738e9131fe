// JSON Patch (RFC 6902) with the error wording of the library kustomize uses (evanphx/json-patch).
import { KustomizeError } from "../errors.js";
import { jsonText } from "../resource.js";
import type { Json } from "../yaml/emit.js";

export interface Operation {
  op: string;
  path: string;
  value?: Json;
  from?: string;
}

const decode = (seg: string) => seg.replaceAll("~1", "/").replaceAll("~0", "~");
const parts = (pointer: string) => (pointer === "" ? [] : pointer.split("/").slice(1).map(decode));

function parentOf(doc: Json, pointer: string, op: string): { container: Json; key: string } {
  const segs = parts(pointer);
  if (segs.length === 0) throw new KustomizeError(`${op} operation does not apply: doc is missing path: ${pointer}`);
  let cur: Json = doc;
  for (const seg of segs.slice(0, -1)) {
    const next = Array.isArray(cur) ? cur[Number(seg)] : cur && typeof cur === "object" ? cur[seg] : undefined;
    if (next === undefined || next === null || typeof next !== "object")
      throw new KustomizeError(`${op} operation does not apply: doc is missing path: ${pointer}: missing value`);
    cur = next;
  }
  return { container: cur, key: segs[segs.length - 1]! };
}

function get(doc: Json, pointer: string, op: string): Json {
  let cur: Json = doc;
  for (const seg of parts(pointer)) {
    const next = Array.isArray(cur) ? cur[Number(seg)] : cur && typeof cur === "object" ? cur[seg] : undefined;
    if (next === undefined)
      throw new KustomizeError(`${op} operation does not apply: doc is missing path: ${pointer}: missing value`);
    cur = next;
  }
  return cur;
}

function remove(doc: Json, pointer: string, op: string): Json {
  const { container, key } = parentOf(doc, pointer, op);
  if (Array.isArray(container)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= container.length)
      throw new KustomizeError(`${op} operation does not apply: doc is missing path: ${pointer}: missing value`);
    return container.splice(i, 1)[0]!;
  }
  const obj = container as Record<string, Json>;
  if (!Object.hasOwn(obj, key))
    throw new KustomizeError(`${op} operation does not apply: doc is missing path: ${pointer}: missing value`);
  const v = obj[key]!;
  delete obj[key];
  return v;
}

function add(doc: Json, pointer: string, value: Json, op: string): void {
  const { container, key } = parentOf(doc, pointer, op);
  if (Array.isArray(container)) {
    const i = key === "-" ? container.length : Number(key);
    if (!Number.isInteger(i) || i < 0 || i > container.length)
      throw new KustomizeError(`${op} operation does not apply: doc is missing path: ${pointer}: missing value`);
    container.splice(i, 0, value);
  } else (container as Record<string, Json>)[key] = value;
}

export function applyJsonPatch(doc: Json, ops: Operation[]): Json {
  for (const o of ops) {
    const clone = (v: Json | undefined) => structuredClone(v ?? null);
    switch (o.op) {
      case "add":
        add(doc, o.path, clone(o.value), "add");
        break;
      case "remove":
        remove(doc, o.path, "remove");
        break;
      case "replace":
        get(doc, o.path, "replace");
        remove(doc, o.path, "replace");
        add(doc, o.path, clone(o.value), "replace");
        break;
      case "move":
        add(doc, o.path, remove(doc, o.from ?? "", "move"), "move");
        break;
      case "copy":
        add(doc, o.path, clone(get(doc, o.from ?? "", "copy")), "copy");
        break;
      case "test":
        if (jsonText(get(doc, o.path, "test")) !== jsonText(o.value ?? null))
          throw new KustomizeError(`testing value ${o.path} failed: test failed`);
        break;
      default:
        throw new KustomizeError(`Unexpected kind: ${o.op}`);
    }
  }
  return doc;
}
