// slim-sprig v3.0.0's list, dict, default and JSON/YAML functions (list.go, dict.go, defaults.go),
// and the operator's toYaml/mustToYaml (sigs.k8s.io/yaml.Marshal: go-yaml v2 through JSON).
import { type Json, toYaml } from "../../../kustomize/yaml/emit.js";
import { FuncError, type GoFunc, fn } from "./functions.js";
import { type GoMap, type GoValue, Num, fromJson, int, isMap, kindOf, sortedKeys, toPlain } from "./values.js";
import { toInt64 } from "./sprig-numeric.js";
import { strval } from "./sprig-strings.js";

/** sprig's empty. */
export function empty(v: GoValue | undefined): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === "string") return v.length === 0;
  if (typeof v === "boolean") return !v;
  if (v instanceof Num) return v.v === 0;
  return Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0;
}

/** `v` as a list, or sprig's error: "Cannot <what> on type <kind>" unless `message` words it otherwise. */
const list = (v: GoValue, what: string, message?: (kind: string) => string): GoValue[] => {
  if (Array.isArray(v)) return v;
  const kind = kindOf(v);
  throw new FuncError(message ? message(kind) : `Cannot ${what} on type ${kind}`);
};
const strslice = (v: GoValue): string[] =>
  Array.isArray(v) ? v.filter((e) => e !== null).map(strval) : v === null ? [] : [strval(v)];
const deepEqual = (a: GoValue, b: GoValue): boolean => JSON.stringify(tagged(a)) === JSON.stringify(tagged(b));
const tagged = (v: GoValue): unknown =>
  v instanceof Num
    ? [v.kind, v.v]
    : Array.isArray(v)
      ? v.map(tagged)
      : isMap(v)
        ? sortedKeys(v).map((k) => [k, tagged(v[k]!)])
        : v;

/** encoding/json.Marshal: sorted keys, HTML characters escaped, as sprig's toJson prints. */
export function goJson(v: GoValue, indent = 0, escapeHtml = true): string {
  const text = JSON.stringify(sortDeep(toPlain(v)), null, indent);
  const escaped = text.replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
  return escapeHtml ? escaped.replace(/[<>&]/g, (c) => "\\u00" + c.charCodeAt(0).toString(16)) : escaped;
}
const sortDeep = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, sortDeep(o[k])]),
    );
  }
  return v;
};

export function goYaml(v: GoValue): string {
  return toYaml(JSON.parse(goJson(v, 0, false)) as Json);
}

export function dataFunctions(): Map<string, GoFunc> {
  const m = new Map<string, GoFunc>();
  const set = (name: string, f: GoFunc) => m.set(name, f);
  set(
    "list",
    fn([], (args) => [...args], "any"),
  );
  set("tuple", m.get("list")!);
  set(
    "dict",
    fn(
      [],
      (args) => {
        const d: GoMap = {};
        for (let i = 0; i < args.length; i += 2) d[strval(args[i]!)] = i + 1 < args.length ? args[i + 1]! : "";
        return d;
      },
      "any",
    ),
  );
  set(
    "get",
    fn(["map", "string"], ([d, k]) => (d && Object.hasOwn(d as GoMap, k as string) ? (d as GoMap)[k as string]! : "")),
  );
  set(
    "set",
    fn(["map", "string", "any"], ([d, k, v]) => (((d as GoMap)[k as string] = v!), d!)),
  );
  set(
    "unset",
    fn(["map", "string"], ([d, k]) => (delete (d as GoMap)[k as string], d!)),
  );
  set(
    "hasKey",
    fn(["map", "string"], ([d, k]) => d !== null && Object.hasOwn(d as GoMap, k as string)),
  );
  set(
    "pluck",
    fn(
      ["string"],
      ([k, ...ds]) =>
        ds.filter((d) => d && Object.hasOwn(d as GoMap, k as string)).map((d) => (d as GoMap)[k as string]!),
      "map",
    ),
  );
  set(
    "keys",
    fn([], (ds) => ds.flatMap((d) => (d ? sortedKeys(d as GoMap) : [])), "map"),
  );
  set(
    "values",
    fn(["map"], ([d]) => (d ? sortedKeys(d as GoMap).map((k) => (d as GoMap)[k]!) : [])),
  );
  set(
    "pick",
    fn(
      ["map"],
      ([d, ...ks]) =>
        Object.fromEntries(
          ks.filter((k) => Object.hasOwn(d as GoMap, k as string)).map((k) => [k, (d as GoMap)[k as string]!]),
        ),
      "string",
    ),
  );
  set(
    "omit",
    fn(
      ["map"],
      ([d, ...ks]) => Object.fromEntries(Object.entries(d as GoMap).filter(([k]) => !ks.includes(k))),
      "string",
    ),
  );
  set(
    "dig",
    fn(
      ["any"],
      (args) => {
        const d = args[args.length - 1]!;
        const def = args[args.length - 2]!;
        let cur: GoValue = d;
        for (const k of args.slice(0, -2)) {
          if (!isMap(cur) || !Object.hasOwn(cur, k as string)) return def;
          cur = cur[k as string]!;
        }
        return cur;
      },
      "any",
    ),
  );
  set(
    "append",
    fn(["any", "any"], ([l, v]) => [...list(l!, "push"), v!]),
  );
  set("push", m.get("append")!);
  set(
    "prepend",
    fn(["any", "any"], ([l, v]) => [v!, ...list(l!, "prepend")]),
  );
  set(
    "first",
    fn(["any"], ([l]) => list(l!, "find first")[0] ?? null),
  );
  set(
    "last",
    fn(["any"], ([l]) => {
      const a = list(l!, "find last");
      return a[a.length - 1] ?? null;
    }),
  );
  set(
    "rest",
    fn(["any"], ([l]) => {
      const a = list(l!, "find rest");
      return a.length ? a.slice(1) : null;
    }),
  );
  set(
    "initial",
    fn(["any"], ([l]) => {
      const a = list(l!, "find initial");
      return a.length ? a.slice(0, -1) : null;
    }),
  );
  set(
    "reverse",
    fn(["any"], ([l]) => [...list(l!, "find reverse")].reverse()),
  );
  set(
    "uniq",
    fn(["any"], ([l]) => list(l!, "find uniq").filter((v, i, a) => a.findIndex((w) => deepEqual(v, w)) === i)),
  );
  set(
    "without",
    fn(["any"], ([l, ...omit]) => list(l!, "find without").filter((v) => !omit.some((o) => deepEqual(v, o))), "any"),
  );
  set(
    "has",
    fn(["any", "any"], ([needle, hay]) =>
      hay === null ? false : list(hay!, "find has").some((v) => deepEqual(needle!, v)),
    ),
  );
  set(
    "compact",
    fn(["any"], ([l]) => list(l!, "compact").filter((v) => !empty(v))),
  );
  set(
    "concat",
    fn([], (ls) => ls.flatMap((l) => list(l, "concat")), "any"),
  );
  set(
    "slice",
    fn(
      ["any"],
      ([l, ...idx]) => {
        const a = list(l!, "slice", (k) => `list should be type of slice or array but ${k}`);
        if (a.length === 0) return null;
        const start = idx.length > 0 ? toInt64(idx[0]!) : 0;
        const end = idx.length > 1 ? toInt64(idx[1]!) : a.length;
        if (start < 0 || end > a.length || start > end)
          throw new FuncError(`runtime error: slice bounds out of range [${start}:${end}]`);
        return a.slice(start, end);
      },
      "any",
    ),
  );
  set(
    "chunk",
    fn(["int", "any"], ([size, l]) => {
      const a = list(l!, "chunk", (k) => `Cannot chunk type ${k}`);
      const n = (size as Num).v;
      const out: GoValue[] = [];
      for (let i = 0; i < a.length; i += n) out.push(a.slice(i, i + n));
      return out;
    }),
  );
  // sprig's push, first, ... panic where their must* twins return the error; text/template reports both
  // as "error calling <name>: <error>", so each twin is the same function under its own name.
  for (const name of [
    "push",
    "append",
    "prepend",
    "first",
    "last",
    "rest",
    "initial",
    "reverse",
    "uniq",
    "without",
    "has",
    "slice",
    "compact",
    "chunk",
  ])
    set(`must${name[0]!.toUpperCase()}${name.slice(1)}`, m.get(name)!);
  set(
    "sortAlpha",
    fn(["any"], ([l]) => (Array.isArray(l) ? strslice(l).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) : [strval(l!)])),
  );
  set(
    "join",
    fn(["string", "any"], ([sep, l]) => strslice(l!).join(sep as string)),
  );
  set(
    "toStrings",
    fn(["any"], ([l]) => strslice(l!)),
  );
  set(
    "default",
    fn(["any"], ([d, ...given]) => (empty(given[0]) ? d! : given[0]!), "any"),
  );
  set(
    "empty",
    fn(["any"], ([v]) => empty(v)),
  );
  set(
    "coalesce",
    fn([], (vs) => vs.find((v) => !empty(v)) ?? null, "any"),
  );
  set(
    "all",
    fn([], (vs) => vs.every((v) => !empty(v)), "any"),
  );
  set(
    "any",
    fn([], (vs) => vs.some((v) => !empty(v)), "any"),
  );
  set(
    "ternary",
    fn(["any", "any", "bool"], ([t, f, c]) => (c ? t! : f!)),
  );
  set(
    "toJson",
    fn(["any"], ([v]) => goJson(v!)),
  );
  set("mustToJson", m.get("toJson")!);
  set(
    "toPrettyJson",
    fn(["any"], ([v]) => goJson(v!, 2)),
  );
  set("mustToPrettyJson", m.get("toPrettyJson")!);
  set(
    "toRawJson",
    fn(["any"], ([v]) => goJson(v!, 0, false)),
  );
  set("mustToRawJson", m.get("toRawJson")!);
  set(
    "fromJson",
    fn(["string"], ([s]) => parseJson(s as string, false)),
  );
  set(
    "mustFromJson",
    fn(["string"], ([s]) => parseJson(s as string, true)),
  );
  set(
    "toYaml",
    fn(["any"], ([v]) => goYaml(v!)),
  );
  set("mustToYaml", m.get("toYaml")!);
  set(
    "kindOf",
    fn(["any"], ([v]) => kindOf(v!)),
  );
  set(
    "kindIs",
    fn(["string", "any"], ([k, v]) => kindOf(v!) === k),
  );
  set(
    "deepEqual",
    fn(["any", "any"], ([a, b]) => deepEqual(a!, b!)),
  );
  void int;
  return m;
}

/** JSON into Go's encoding/json types: every number a float64. */
function parseJson(text: string, must: boolean): GoValue {
  try {
    return floats(fromJson(JSON.parse(text)));
  } catch (e) {
    if (must) throw new FuncError((e as Error).message);
    return null;
  }
}
const floats = (v: GoValue): GoValue =>
  v instanceof Num
    ? new Num("float64", v.v)
    : Array.isArray(v)
      ? v.map(floats)
      : isMap(v)
        ? Object.fromEntries(Object.entries(v).map(([k, e]) => [k, floats(e)]))
        : v;
