// JSON Patch (RFC 6902) as the library kustomize uses applies it (gopkg.in/evanphx/json-patch.v4,
// patch.go), with its error wording. Where v4 differs from the RFC, kustomize does too: `replace` of a
// missing key of an existing map adds it (partialDoc.get never fails), `copy` and `move` from a
// missing map key carry null, `test` of a missing map key passes for a null (or absent) value, and
// negative array indices count from the end (SupportNegativeIndices defaults to true).
import { KustomizeError } from "../errors.js";
import type { Json } from "../yaml/emit.js";

export interface Operation {
  op: string;
  path: string;
  value?: Json;
  from?: string;
}

type Container = Record<string, Json> | Json[];
const MISSING = "missing value";
const INVALID_INDEX = "invalid index referenced";

const fail = (message: string): never => {
  throw new KustomizeError(message);
};
const isContainer = (v: Json | undefined): v is Container => v !== null && typeof v === "object";
const decodeKey = (k: string) => k.replaceAll("~1", "/").replaceAll("~0", "~");

/** Go's strconv.Atoi, with its error wording. */
function atoi(key: string): number {
  if (!/^[+-]?\d+$/.test(key)) fail(`strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  return Number(key);
}

/** An index of a list of `length`, negative ones counted from the end (partialArray get/set/remove). */
function index(key: string, length: number): number {
  let i = atoi(key);
  if (i < 0) {
    if (i < -length) fail(`Unable to access invalid index: ${i}: ${INVALID_INDEX}`);
    i += length;
  }
  if (i >= length) fail(`Unable to access invalid index: ${i}: ${INVALID_INDEX}`);
  return i;
}

/** findObject: the container holding the pointer's last segment, or undefined when a step is missing. */
function findObject(doc: Json, pointer: string): { con: Container; key: string } | undefined {
  const split = pointer.split("/");
  if (split.length < 2) return undefined;
  let cur: Json = doc;
  for (const part of split.slice(1, -1)) {
    if (!isContainer(cur)) return undefined;
    let next: Json | undefined;
    if (Array.isArray(cur)) {
      try {
        next = cur[index(decodeKey(part), cur.length)];
      } catch {
        return undefined;
      }
    } else next = cur[decodeKey(part)];
    if (!isContainer(next)) return undefined;
    cur = next;
  }
  return isContainer(cur) ? { con: cur, key: decodeKey(split[split.length - 1]!) } : undefined;
}

/** container.get: a missing map key is null, not an error. */
const get = (con: Container, key: string): Json =>
  Array.isArray(con) ? con[index(key, con.length)]! : Object.hasOwn(con, key) ? con[key]! : null;

function set(con: Container, key: string, value: Json): void {
  if (Array.isArray(con)) con[index(key, con.length)] = value;
  else con[key] = value;
}

function add(con: Container, key: string, value: Json): void {
  if (!Array.isArray(con)) {
    con[key] = value;
    return;
  }
  if (key === "-") {
    con.push(value);
    return;
  }
  if (!/^[+-]?\d+$/.test(key))
    fail(`value was not a proper array index: '${key}': strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  let i = Number(key);
  const size = con.length + 1;
  if (i >= size) fail(`Unable to access invalid index: ${i}: ${INVALID_INDEX}`);
  if (i < 0) {
    if (i < -size) fail(`Unable to access invalid index: ${i}: ${INVALID_INDEX}`);
    i += size;
  }
  con.splice(i, 0, value);
}

function remove(con: Container, key: string): void {
  if (Array.isArray(con)) con.splice(index(key, con.length), 1);
  else if (!Object.hasOwn(con, key)) fail(`Unable to remove nonexistent key: ${key}: ${MISSING}`);
  else delete con[key];
}

/** Runs a container step, prefixing its error as the library does. */
function step<T>(prefix: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof KustomizeError) fail(`${prefix}: ${e.message}`);
    throw e;
  }
}

/** lazyNode.equal: maps by keys, lists in order, numbers by value. */
function equal(a: Json, b: Json): boolean {
  if ((typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint"))
    return Number(a) === Number(b);
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => equal(v, b[i]!));
  if (isContainer(a) && isContainer(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && equal(a[k]!, b[k]!));
  }
  return a === b;
}

function apply(doc: Json, o: Operation): Json {
  const value = (): Json => structuredClone(o.value ?? null);
  const path = o.path;
  switch (o.op) {
    case "add": {
      const at =
        findObject(doc, path) ?? fail(`add operation does not apply: doc is missing path: "${path}": ${MISSING}`);
      step(`error in add for path: '${path}'`, () => add(at.con, at.key, value()));
      return doc;
    }
    case "remove": {
      const at =
        findObject(doc, path) ?? fail(`remove operation does not apply: doc is missing path: "${path}": ${MISSING}`);
      step(`error in remove for path: '${path}'`, () => remove(at.con, at.key));
      return doc;
    }
    case "replace": {
      if (path === "") return isContainer(o.value) ? value() : fail("replace operation value must be object or array");
      const at =
        findObject(doc, path) ?? fail(`replace operation does not apply: doc is missing path: ${path}: ${MISSING}`);
      try {
        get(at.con, at.key);
      } catch {
        fail(`replace operation does not apply: doc is missing key: ${path}: ${MISSING}`);
      }
      step(`error in remove for path: '${path}'`, () => set(at.con, at.key, value()));
      return doc;
    }
    case "move":
    case "copy": {
      const from = o.from ?? "";
      const src =
        findObject(doc, from) ??
        fail(`${o.op} operation does not apply: doc is missing from path: ${from}: ${MISSING}`);
      const moved =
        o.op === "move"
          ? step(`error in move for path: '${src.key}'`, () => {
              const v = get(src.con, src.key);
              remove(src.con, src.key);
              return v;
            })
          : structuredClone(step(`error in copy for from: '${from}'`, () => get(src.con, src.key)));
      const at =
        findObject(doc, path) ??
        fail(`${o.op} operation does not apply: doc is missing destination path: ${path}: ${MISSING}`);
      const prefix = o.op === "move" ? `error in move for path: '${path}'` : "error while adding value during copy";
      step(prefix, () => add(at.con, at.key, moved));
      return doc;
    }
    case "test": {
      const actual =
        path === ""
          ? doc
          : (() => {
              const at =
                findObject(doc, path) ?? fail(`test operation does not apply: is missing path: ${path}: ${MISSING}`);
              return step(`error in test for path: '${path}'`, () =>
                Array.isArray(at.con) || Object.hasOwn(at.con, at.key) ? get(at.con, at.key) : undefined,
              );
            })();
      // A missing key passes against a null or absent value; an absent value fails against any value.
      const passes =
        actual === undefined ? (o.value ?? null) === null : o.value !== undefined && equal(actual, o.value);
      if (!passes) fail(`testing value ${path} failed: test failed`);
      return doc;
    }
    default:
      return fail(`Unexpected kind: ${o.op}`);
  }
}

export function applyJsonPatch(doc: Json, ops: Operation[]): Json {
  for (const o of ops) doc = apply(doc, o);
  return doc;
}
