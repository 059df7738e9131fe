// Reading YAML as kustomize (kyaml, on go-yaml v3) reads it: plain scalars resolved by go-yaml v3's
// rules (YAML 1.2 booleans — `yes`/`on` stay strings — but Go's integer syntax, so `0123` is octal),
// quoted scalars always strings, anchors, aliases and merge keys expanded. Errors name the source,
// the document index and the line and column.
import { FlotillaError } from "../../util/errors.js";
import {
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  parseAllDocuments,
  type Scalar,
} from "yaml";
import type { Json } from "./emit.js";
import { resolvesToNonString } from "./resolve-v1-1.js";
import { defaultQuoted, type ScalarNote, setNote } from "./scalar-style.js";
import { parseSimpleYaml } from "./simple-yaml.js";

export class YamlSyntaxError extends FlotillaError {
  override name = "YamlSyntaxError";
  constructor(
    readonly source: string,
    readonly documentIndex: number,
    readonly line: number,
    readonly column: number,
    detail: string,
  ) {
    super(`${source}: document ${documentIndex + 1}: invalid YAML at line ${line}, column ${column}: ${detail}`);
  }
}

const NULLS = new Set(["", "~", "null", "Null", "NULL"]);
const NON_FINITE = new Set([
  ".inf",
  ".Inf",
  ".INF",
  "+.inf",
  "+.Inf",
  "+.INF",
  "-.inf",
  "-.Inf",
  "-.INF",
  ".nan",
  ".NaN",
  ".NAN",
]);
const TRUE = new Set(["true", "True", "TRUE"]);
const FALSE = new Set(["false", "False", "FALSE"]);
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** Go's strconv.ParseInt(s, 0, 64): decimal, 0x, 0o, 0b, and a leading 0 meaning octal. */
function goInt(s: string): number | bigint | undefined {
  const m = /^([-+]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  const body = m[2]!;
  let value: bigint;
  if (/^0[xX]/.test(body)) value = BigInt(body);
  else if (/^0[bB]/.test(body)) value = BigInt(`0b${body.slice(2)}`);
  else if (/^0[oO]/.test(body)) value = BigInt(`0o${body.slice(2)}`);
  else if (body.length > 1 && body[0] === "0") value = BigInt(`0o${body.slice(1)}`);
  else value = BigInt(body);
  if (m[1] === "-") value = -value;
  if (value > 2n ** 64n - 1n || value < -(2n ** 63n)) return undefined;
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value;
}

const TIMESTAMPS = [
  /^(\d{4})-(\d{1,2})-(\d{1,2})$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2})[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?(Z|[-+]\d{2}:\d{2})$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?$/,
];

/**
 * A plain timestamp becomes a Go time.Time in go-yaml v3, which kustomize then prints as JSON
 * does: RFC 3339 with nanoseconds trimmed (`2026-01-01` → `2026-01-01T00:00:00Z`).
 */
function timestamp(text: string): string | undefined {
  for (const re of TIMESTAMPS) {
    const m = re.exec(text);
    if (!m) continue;
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return undefined;
    const [h, mi, se] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
    if (h > 23 || mi > 59 || se > 59) return undefined;
    const p2 = (n: number) => String(n).padStart(2, "0");
    const frac = (m[7] ?? "").replace(/0+$/, "").replace(/^\.$/, "");
    const zone = m[8] && m[8] !== "Z" ? m[8] : "Z";
    return `${m[1]}-${p2(mo)}-${p2(d)}T${p2(h)}:${p2(mi)}:${p2(se)}${frac}${zone}`;
  }
  return undefined;
}

/** The tag go-yaml v3 resolves a plain scalar to. */
export type PlainTag = "null" | "bool" | "int" | "float" | "timestamp" | "str";

/**
 * go-yaml v3's resolution of a plain scalar, with its tag. go-yaml tries a timestamp only for an
 * untagged (or `!!timestamp`) node, so `timestamps: false` reads `2001-12-14` as a string, as it
 * does for a node tagged `!!int`. `.inf` and `.nan` resolve to non-finite floats.
 */
export function resolvePlainTagged(text: string, timestamps = true): { tag: PlainTag; value: Json } {
  if (NULLS.has(text)) return { tag: "null", value: null };
  if (TRUE.has(text)) return { tag: "bool", value: true };
  if (FALSE.has(text)) return { tag: "bool", value: false };
  if (NON_FINITE.has(text))
    return {
      tag: "float",
      value: text.toLowerCase().endsWith("nan") ? NaN : Number(text.replace(/\.inf/i, "Infinity")),
    };
  if ("+-.0123456789".includes(text[0]!)) {
    const time = timestamps && /^\d{4}-/.test(text) ? timestamp(text) : undefined;
    if (time) return { tag: "timestamp", value: time };
    const plain = text.replaceAll("_", "");
    const int = goInt(plain);
    if (int !== undefined) return { tag: "int", value: int };
    if (YAML_FLOAT.test(plain)) {
      const f = Number(plain);
      if (Number.isFinite(f)) return { tag: "float", value: f };
    }
  }
  return { tag: "str", value: text };
}

/** go-yaml v3's resolution of an untagged plain scalar (`.inf` and `.nan` kept as text). */
export function resolvePlain(text: string): Json {
  const { value } = resolvePlainTagged(text);
  return typeof value === "number" && !Number.isFinite(value) ? text : value;
}

function resolveTagged(tag: string, text: string, where: () => never): Json {
  switch (tag) {
    case "tag:yaml.org,2002:str":
      return text;
    case "tag:yaml.org,2002:null":
      return null;
    case "tag:yaml.org,2002:bool":
      return TRUE.has(text) ? true : FALSE.has(text) ? false : where();
    case "tag:yaml.org,2002:int":
    case "tag:yaml.org,2002:float": {
      const v = resolvePlain(text);
      return typeof v === "number" || typeof v === "bigint" ? v : where();
    }
    default:
      return text; // custom tags (e.g. !Ref) keep their text, as kyaml does
  }
}

interface Context {
  doc: Document;
  source: string;
  index: number;
  lineOf(offset: number): { line: number; column: number };
}

function fail(ctx: Context, node: Node | null | undefined, detail: string): never {
  const pos = ctx.lineOf(node?.range?.[0] ?? 0);
  throw new YamlSyntaxError(ctx.source, ctx.index, pos.line, pos.column, detail);
}

function scalarValue(ctx: Context, node: Scalar): Json {
  const text = String(node.value ?? "");
  // go-yaml reads these as floats that JSON (and so kustomize's output) cannot hold.
  if (!node.tag && node.type === "PLAIN" && NON_FINITE.has(text))
    fail(ctx, node, `${text} (infinity or NaN) cannot be represented; quote it if it is a string`);
  if (node.tag)
    return resolveTagged(node.tag, text, () => fail(ctx, node, `cannot read ${JSON.stringify(text)} as ${node.tag}`));
  return node.type === "PLAIN" ? resolvePlain(text) : text;
}

const QUOTED: ScalarNote = Object.freeze({ quoted: true });
const PLAIN: ScalarNote = Object.freeze({ quoted: false });

/** The note of an untagged plain scalar (shared with the fast path in simple-yaml.ts). */
export function plainScalarNote(text: string, value: Json): ScalarNote | undefined {
  if (typeof value === "string") {
    if (value !== text) return { quoted: false, raw: text }; // a timestamp, read as RFC 3339
    return resolvesToNonString(value) || value.includes("\n") ? PLAIN : undefined;
  }
  if (value === null) return undefined;
  return String(value) === text ? undefined : { raw: text };
}

export const QUOTED_NOTE = QUOTED;

/**
 * What kyaml's node knows that the value does not (scalar-style.ts): a quoted or block string, a
 * plain string go-yaml v3 would have quoted (`yes`), or source text the value does not print back.
 */
function scalarNote(node: Node | null | undefined, value: Json): ScalarNote | undefined {
  if (!isScalar(node)) return undefined;
  const text = String(node.value ?? "");
  if (typeof value === "string") {
    if (node.type !== "PLAIN") return QUOTED;
    if (node.tag && value === text) return defaultQuoted(value) ? PLAIN : undefined;
  } else if (value === null || node.type !== "PLAIN") return undefined;
  return plainScalarNote(text, value);
}

function toJson(ctx: Context, node: Node | null | undefined, seen: Set<Node>): Json {
  if (node === null || node === undefined) return null;
  if (isAlias(node)) {
    const target = node.resolve(ctx.doc);
    if (!target) fail(ctx, node, `unknown alias *${node.source}`);
    if (seen.has(target)) fail(ctx, node, `alias *${node.source} refers to itself`);
    return toJson(ctx, target, new Set([...seen, target]));
  }
  if (isScalar(node)) return scalarValue(ctx, node);
  if (isSeq(node)) {
    const out = node.items.map((item) => toJson(ctx, item as Node, seen));
    node.items.forEach((item, i) => {
      const note = scalarNote(item as Node, out[i]!);
      if (note) setNote(out, i, note);
    });
    return out;
  }
  if (isMap(node)) {
    const out: Record<string, Json> = {};
    const merged: Record<string, Json>[] = [];
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const keyNode = pair.key as Node | null;
      if (!isScalar(keyNode)) fail(ctx, keyNode, "mapping keys must be strings");
      const key = String(keyNode.value ?? "");
      if (keyNode.type === "PLAIN" && !keyNode.tag && key !== "<<" && typeof resolvePlain(key) !== "string") {
        fail(ctx, keyNode, `mapping key ${key} is not a string; quote it`);
      }
      const value = toJson(ctx, pair.value as Node, seen);
      if (key === "<<" && isScalar(keyNode) && keyNode.type === "PLAIN") {
        for (const m of Array.isArray(value) ? value : [value]) {
          if (m && typeof m === "object" && !Array.isArray(m)) merged.push(m);
          else fail(ctx, keyNode, "merge key << needs a mapping or a list of mappings");
        }
        continue;
      }
      if (Object.hasOwn(out, key)) fail(ctx, keyNode, `mapping key "${key}" already defined`);
      out[key] = value;
      const note = scalarNote(pair.value as Node, value);
      if (note) setNote(out, key, note);
    }
    // Explicit keys win over merged ones; earlier merge sources win over later ones.
    for (const m of merged.reverse()) for (const [k, v] of Object.entries(m)) if (!Object.hasOwn(out, k)) out[k] = v;
    return out;
  }
  return fail(ctx, node, "unsupported YAML node");
}

/** Line and column of an offset; the line table is built only when an error needs a position. */
function lineIndex(text: string): (offset: number) => { line: number; column: number } {
  let starts: number[] | undefined;
  return (offset) => {
    if (!starts) {
      starts = [0];
      for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

export interface ParsedDocument {
  value: Json;
  /** 0-based position of the document in its file. */
  index: number;
}

/** All documents of a YAML (or JSON) text; empty documents are dropped as kustomize does. */
export function parseYamlDocuments(text: string, source: string): ParsedDocument[] {
  const lineOf = lineIndex(text);
  const directive = /^%YAML\s+(\S+)/m.exec(text);
  if (directive && directive[1] !== "1.1") {
    const pos = lineOf(directive.index);
    throw new YamlSyntaxError(
      source,
      0,
      pos.line,
      pos.column,
      `found incompatible YAML document (%YAML ${directive[1]}; only 1.1 is accepted)`,
    );
  }
  return parseSimpleYaml(text) ?? parseYamlDocumentsFully(text, source, lineOf);
}

/** The `yaml` library's full parse (every YAML feature, positioned errors). */
export function parseYamlDocumentsFully(text: string, source: string, lineOf = lineIndex(text)): ParsedDocument[] {
  const docs = parseAllDocuments(text, { schema: "failsafe", uniqueKeys: false, prettyErrors: false, merge: false });
  const list = Array.isArray(docs) ? docs : [docs];
  const out: ParsedDocument[] = [];
  list.forEach((doc, index) => {
    const error = doc.errors[0];
    if (error) {
      const pos = lineOf(error.pos[0]);
      throw new YamlSyntaxError(
        source,
        index,
        pos.line,
        pos.column,
        error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, ""),
      );
    }
    const value = toJson({ doc, source, index, lineOf }, doc.contents as Node, new Set());
    if (value !== null) out.push({ value, index });
  });
  return out;
}
