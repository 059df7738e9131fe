// A YAML writer that produces exactly what go-yaml v2 (libyaml's emitter) writes for JSON-like data,
// because that is how `kustomize build` prints every resource (sigs.k8s.io/yaml → go-yaml v2):
// map keys in go-yaml's natural order, block style, sequences not indented under their key, empty
// collections as {} and [], plain scalars where YAML 1.1 allows, long lines folded at 80 columns.
import { sortKeys } from "./key-order.js";
import { resolvesToNonString } from "./resolve-v1-1.js";

/** JSON-like data; integers beyond 2^53 stay exact as bigint, as Go's int64 keeps them. */
export type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };

const BEST_INDENT = 2;
const BEST_WIDTH = 80;

type Style = "plain" | "single" | "double" | "literal";

interface Analysis {
  multiline: boolean;
  flowPlainAllowed: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

const isBreak = (c: string) => c === "\n" || c === "\r" || c === "\u0085" || c === "\u2028" || c === "\u2029";
const isSpace = (c: string | undefined) => c === " ";
const isBlankz = (c: string | undefined) => c === undefined || c === " " || c === "\t" || isBreak(c);

/** libyaml's is_printable, on code points. */
function isPrintable(c: string): boolean {
  const cp = c.codePointAt(0)!;
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff) ||
    cp === 0x85
  );
}

/** libyaml's yaml_emitter_analyze_scalar: which styles can carry this text. */
function analyze(value: string): Analysis {
  const chars = [...value];
  if (chars.length === 0) {
    return {
      multiline: false,
      flowPlainAllowed: false,
      blockPlainAllowed: true,
      singleQuotedAllowed: true,
      blockAllowed: false,
    };
  }
  let flowIndicators = false;
  let blockIndicators = false;
  let lineBreaks = false;
  let specialCharacters = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  if (value.startsWith("---") || value.startsWith("...")) {
    blockIndicators = true;
    flowIndicators = true;
  }
  chars.forEach((c, i) => {
    const followedByWhitespace = isBlankz(chars[i + 1]);
    if (i === 0) {
      if ("#,[]{}&*!|>'\"%@`".includes(c)) {
        flowIndicators = true;
        blockIndicators = true;
      }
      if (c === "?" || c === ":") {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      }
      if (c === "-" && followedByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    } else {
      if (",?[]{}".includes(c)) flowIndicators = true;
      if (c === ":") {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      }
      if (c === "#" && precededByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    }
    if (!isPrintable(c)) specialCharacters = true;
    if (isBreak(c)) lineBreaks = true;
    const last = i === chars.length - 1;
    if (isSpace(c)) {
      if (i === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      if (i === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousBreak = true;
      previousSpace = false;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankz(c);
  });
  const a: Analysis = {
    multiline: lineBreaks,
    flowPlainAllowed: true,
    blockPlainAllowed: true,
    singleQuotedAllowed: true,
    blockAllowed: true,
  };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) a.flowPlainAllowed = a.blockPlainAllowed = false;
  if (trailingSpace) a.blockAllowed = false;
  if (breakSpace) a.flowPlainAllowed = a.blockPlainAllowed = a.singleQuotedAllowed = false;
  if (spaceBreak || specialCharacters)
    a.flowPlainAllowed = a.blockPlainAllowed = a.singleQuotedAllowed = a.blockAllowed = false;
  if (lineBreaks) a.flowPlainAllowed = a.blockPlainAllowed = false;
  if (flowIndicators) a.flowPlainAllowed = false;
  if (blockIndicators) a.blockPlainAllowed = false;
  return a;
}

/** Style go-yaml v2's encoder asks for, then libyaml's downgrade rules. */
function selectStyle(value: string, simpleKey: boolean): Style {
  let style: Style = value.includes("\n") ? "literal" : resolvesToNonString(value) ? "double" : "plain";
  const a = analyze(value);
  if (style === "plain") {
    if (!a.blockPlainAllowed || (value.length === 0 && simpleKey)) style = "single";
  }
  if (style === "single" && !a.singleQuotedAllowed) style = "double";
  if (style === "literal" && (!a.blockAllowed || simpleKey)) style = "double";
  return style;
}

const ESCAPES: Record<string, string> = {
  "\0": "0",
  "\x07": "a",
  "\b": "b",
  "\t": "t",
  "\n": "n",
  "\x0b": "v",
  "\f": "f",
  "\r": "r",
  "\x1b": "e",
  '"': '"',
  "\\": "\\",
  "\u0085": "N",
  "\u00a0": "_",
  "\u2028": "L",
  "\u2029": "P",
};

class Writer {
  out = "";
  column = 0;
  indent = -1;
  private indents: number[] = [];
  whitespace = true;
  indention = true;

  put(s: string): void {
    this.out += s;
    this.column += [...s].length;
  }
  putBreak(): void {
    this.out += "\n";
    this.column = 0;
  }
  increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }
  popIndent(): void {
    this.indent = this.indents.pop()!;
  }
  writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(" ");
    this.whitespace = true;
    this.indention = true;
  }
  indicator(s: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(" ");
    this.put(s);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  plain(value: string, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(" ");
    const chars = [...value];
    let spaces = false;
    chars.forEach((c, i) => {
      if (isSpace(c)) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && !isSpace(chars[i + 1])) this.writeIndent();
        else this.put(c);
        spaces = true;
      } else {
        this.put(c);
        spaces = false;
      }
    });
    this.whitespace = false;
    this.indention = false;
  }

  singleQuoted(value: string, allowBreaks: boolean): void {
    this.indicator("'", true, false, false);
    const chars = [...value];
    let spaces = false;
    chars.forEach((c, i) => {
      if (isSpace(c)) {
        if (
          allowBreaks &&
          !spaces &&
          this.column > BEST_WIDTH &&
          i !== 0 &&
          i !== chars.length - 1 &&
          !isSpace(chars[i + 1])
        )
          this.writeIndent();
        else this.put(c);
        spaces = true;
      } else {
        this.put(c === "'" ? "''" : c);
        spaces = false;
      }
    });
    this.indicator("'", false, false, false);
  }

  doubleQuoted(value: string, allowBreaks: boolean): void {
    this.indicator('"', true, false, false);
    const chars = [...value];
    let spaces = false;
    chars.forEach((c, i) => {
      const cp = c.codePointAt(0)!;
      if (!isPrintable(c) || cp === 0xfeff || isBreak(c) || c === '"' || c === "\\") {
        const code = ESCAPES[c];
        if (code) this.put(`\\${code}`);
        else if (cp <= 0xff) this.put(`\\x${cp.toString(16).toUpperCase().padStart(2, "0")}`);
        else if (cp <= 0xffff) this.put(`\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`);
        else this.put(`\\U${cp.toString(16).toUpperCase().padStart(8, "0")}`);
        spaces = false;
      } else if (isSpace(c)) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i !== 0 && i !== chars.length - 1) {
          this.writeIndent();
          if (isSpace(chars[i + 1])) this.put("\\");
        } else this.put(c);
        spaces = true;
      } else {
        this.put(c);
        spaces = false;
      }
    });
    this.indicator('"', false, false, false);
  }

  literal(value: string): void {
    this.indicator("|", true, false, false);
    const chars = [...value];
    let hints = "";
    if (isSpace(chars[0]) || isBreak(chars[0]!)) hints += String(BEST_INDENT);
    const last = chars[chars.length - 1]!;
    if (!isBreak(last)) hints += "-";
    else if (chars.length >= 2 && isBreak(chars[chars.length - 2]!)) hints += "+";
    if (hints) this.indicator(hints, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const c of chars) {
      if (isBreak(c)) {
        this.putBreak();
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) {
          this.writeIndent();
          breaks = false;
        }
        this.put(c);
        this.indention = false;
      }
    }
  }
}

/** Would the string be written plain (not quoted, not a block)? */
export const printsPlain = (value: string): boolean => selectStyle(value, false) === "plain";

const INT64_MIN = -(2 ** 63);
const UINT64_LIMIT = 2 ** 64;

/**
 * A float64 as go-yaml v2 prints it. sigs.k8s.io/yaml hands go-yaml a whole number that fits int64 or
 * uint64 as an integer (printed exactly: 2^60 is 1152921504606846976, not JavaScript's ...847000);
 * anything else is strconv.FormatFloat(f, 'g', -1, 64): the shortest digits, in exponent form when the
 * exponent is < -4 or >= 6 (Go's rule for shortest 'g': 1234567.5 → 1.2345675e+06, 1e20 → 1e+20).
 */
function formatNumber(n: number): string {
  if (n === Infinity) return ".inf";
  if (n === -Infinity) return "-.inf";
  if (Number.isNaN(n)) return ".nan";
  if (Number.isInteger(n) && n >= INT64_MIN && n < UINT64_LIMIT) return BigInt(n).toString();
  const [mant, e] = n.toExponential().split("e");
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  return String(n);
}

function emitScalar(w: Writer, value: string, simpleKey: boolean): void {
  const style = selectStyle(value, simpleKey);
  w.increaseIndent(true, false);
  const allowBreaks = !simpleKey;
  if (style === "plain") w.plain(value, allowBreaks);
  else if (style === "single") w.singleQuoted(value, allowBreaks);
  else if (style === "double") w.doubleQuoted(value, allowBreaks);
  else w.literal(value);
  w.popIndent();
}

type KeyOrder = (keys: string[]) => string[];

function emitNode(w: Writer, value: Json, ctx: { mapping: boolean; simpleKey: boolean; order: KeyOrder }): void {
  if (value === null) return emitScalarRaw(w, "null");
  if (typeof value === "boolean") return emitScalarRaw(w, String(value));
  if (typeof value === "number") return emitScalarRaw(w, formatNumber(value));
  if (typeof value === "bigint") return emitScalarRaw(w, value.toString());
  if (typeof value === "string") return emitScalar(w, value, ctx.simpleKey);
  if (Array.isArray(value)) {
    if (value.length === 0) return w.indicator("[]", true, false, false);
    w.increaseIndent(false, ctx.mapping && !w.indention);
    for (const item of value) {
      w.writeIndent();
      w.indicator("-", true, false, true);
      emitNode(w, item, { mapping: false, simpleKey: false, order: ctx.order });
    }
    w.popIndent();
    return;
  }
  const keys = ctx.order(Object.keys(value));
  if (keys.length === 0) return w.indicator("{}", true, false, false);
  w.increaseIndent(false, false);
  for (const key of keys) {
    w.writeIndent();
    emitScalar(w, key, true);
    w.indicator(":", false, false, false);
    emitNode(w, value[key]!, { mapping: true, simpleKey: false, order: ctx.order });
  }
  w.popIndent();
}

/** Non-string scalars are always plain (null, true, 42, 0.5). */
function emitScalarRaw(w: Writer, text: string): void {
  w.increaseIndent(true, false);
  w.plain(text, false);
  w.popIndent();
}

/**
 * One YAML document, as go-yaml v2's Marshal writes it (no `---`, trailing newline). Map keys in
 * go-yaml's natural order, unless `order` says otherwise (an ordered MapSlice, e.g. Flux's digests).
 */
export function toYaml(value: Json, order: KeyOrder = sortKeys): string {
  const w = new Writer();
  emitNode(w, value, { mapping: false, simpleKey: false, order });
  w.writeIndent();
  return w.out.startsWith("\n") ? w.out.slice(1) : w.out;
}
