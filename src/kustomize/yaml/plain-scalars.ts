// How go-yaml v3 reads an untagged plain scalar (its value and tag), and the style note a value
// needs to print back as kustomize prints it. Shared by the full reader (parse.ts) and the fast one
// (simple-yaml.ts), so neither imports the other's internals.
import type { Json } from "./emit.js";
import { resolvesToNonString } from "./resolve-v1-1.js";
import type { ScalarNote } from "./scalar-style.js";

const NULLS = new Set(["", "~", "null", "Null", "NULL"]);
export const NON_FINITE = new Set([
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
export const TRUE = new Set(["true", "True", "TRUE"]);
export const FALSE = new Set(["false", "False", "FALSE"]);
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

export const QUOTED: ScalarNote = Object.freeze({ quoted: true });
export const PLAIN: ScalarNote = Object.freeze({ quoted: false });

/** The note of an untagged plain scalar (shared with the fast path in simple-yaml.ts). */
export function plainScalarNote(text: string, value: Json): ScalarNote | undefined {
  if (typeof value === "string") {
    if (value !== text) return { quoted: false, raw: text }; // a timestamp, read as RFC 3339
    return resolvesToNonString(value) || value.includes("\n") ? PLAIN : undefined;
  }
  if (value === null) return undefined;
  return String(value) === text ? undefined : { raw: text };
}
