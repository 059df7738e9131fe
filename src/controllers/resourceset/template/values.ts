// The Go values a ResourceSet template handles, as the operator's engine sees them: inputs decoded by
// k8s.io/apimachinery's JSON (whole numbers int64, others float64), maps, slices, strings, bools, nil.
// Go's int (literals, len, range indexes, sprig's int) and int64 print alike but are different types
// to a typed function parameter, so numbers carry their Go type.

export type NumKind = "int" | "int64" | "float64";

export class Num {
  constructor(
    readonly kind: NumKind,
    readonly v: number,
  ) {}
}

export type GoMap = { [key: string]: GoValue };
export type GoValue = null | string | boolean | Num | GoValue[] | GoMap;

export const int = (v: number) => new Num("int", Math.trunc(v));
export const int64 = (v: number) => new Num("int64", Math.trunc(v));
export const float = (v: number) => new Num("float64", v);

export const isMap = (v: GoValue): v is GoMap =>
  v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Num);

/** Inputs as the operator reads them: JSON whole numbers int64, other numbers float64. */
export function fromJson(value: unknown): GoValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isInteger(value) ? int64(value) : float(value);
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.map(fromJson);
  const out: GoMap = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = fromJson(v);
  return out;
}

/** Back to plain JSON (for toJson, toYaml and the objects a template renders). */
export function toPlain(value: GoValue): unknown {
  if (value instanceof Num) return value.v;
  if (Array.isArray(value)) return value.map(toPlain);
  if (isMap(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) out[k] = toPlain(value[k]!);
    return out;
  }
  return value;
}

/** Go's reflect kind name of a value ("invalid" for nil), as sprig's kindOf prints it. */
export function kindOf(v: GoValue): string {
  if (v === null) return "invalid";
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (v instanceof Num) return v.kind;
  return Array.isArray(v) ? "slice" : "map";
}

/** The Go type name text/template prints in its errors. */
export function typeName(v: GoValue): string {
  if (v === null) return "interface {}";
  if (Array.isArray(v)) return "[]interface {}";
  if (isMap(v)) return "map[string]interface {}";
  return kindOf(v);
}

/** strconv.FormatFloat(f, 'g', -1, 64), which fmt's %v uses for float64. */
export function formatFloat(f: number): string {
  if (Number.isNaN(f)) return "NaN";
  if (!Number.isFinite(f)) return f > 0 ? "+Inf" : "-Inf";
  if (f === 0) return Object.is(f, -0) ? "-0" : "0";
  const [mant, expText] = f.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  // 'g' with the shortest digits switches to %e below 1e-4 and from 1e6 (strconv's eprec of 6).
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  return String(f);
}

/** fmt's %v. */
export function formatValue(v: GoValue): string {
  if (v === null) return "<nil>";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v instanceof Num) return v.kind === "float64" ? formatFloat(v.v) : String(v.v);
  if (Array.isArray(v)) return `[${v.map(formatValue).join(" ")}]`;
  return `map[${sortedKeys(v)
    .map((k) => `${k}:${formatValue(v[k]!)}`)
    .join(" ")}]`;
}

/** Go sorts string map keys by bytes; JavaScript compares UTF-16 units, equal for the BMP. */
export const sortedKeys = (m: GoMap) => Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** text/template's isTrue. */
export function truth(v: GoValue): boolean {
  if (v === null) return false;
  if (typeof v === "string") return v.length > 0;
  if (typeof v === "boolean") return v;
  if (v instanceof Num) return v.v !== 0;
  return Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0;
}

/** strconv.Quote: Go's %q of a string. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === "\\") out += "\\" + ch;
    else if (cp >= 0x20 && cp < 0x7f) out += ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (cp === 7) out += "\\a";
    else if (cp === 8) out += "\\b";
    else if (cp === 12) out += "\\f";
    else if (cp === 11) out += "\\v";
    else if (cp < 0x20 || cp === 0x7f) out += "\\x" + cp.toString(16).padStart(2, "0");
    else if (isGoPrintable(cp)) out += ch;
    else if (cp < 0x10000) out += "\\u" + cp.toString(16).padStart(4, "0");
    else out += "\\U" + cp.toString(16).padStart(8, "0");
  }
  return out + '"';
}

// unicode.IsPrint, close enough for text: letters, marks, numbers, punctuation, symbols, the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
const isGoPrintable = (cp: number) => PRINTABLE.test(String.fromCodePoint(cp));
