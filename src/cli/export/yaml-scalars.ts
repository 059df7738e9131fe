// How go-yaml v2 (go.yaml.in/yaml/v2 v2.4) chooses and writes a string scalar: resolve() decides whether
// the plain text would read back as something else (bool, int, float, null, timestamp — YAML 1.1 rules,
// so "y", "on", "08" and "1_000" are quoted), analyze_scalar/select_scalar_style decide between plain,
// 'single', "double" and a |literal block, and the writers fold long lines at a space past column 80.
import type { YamlOut } from "./yaml-out.js";

const BEST_WIDTH = 80;
const BEST_INDENT = 2;

const NON_STRINGS = new Set(
  "y Y yes Yes YES true True TRUE on On ON n N no No NO false False FALSE off Off OFF ~ null Null NULL .nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF".split(
    " ",
  ),
);
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const GO_INT = /^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const TIMESTAMP =
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]+)?(?:Z|[-+][0-9]{2}:[0-9]{2})|[ ][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]+)?)?$/;

/** go-yaml's resolve("", s) === !!str: the plain text would read back as this same string. */
export function resolvesToString(s: string): boolean {
  if (s === "" || NON_STRINGS.has(s)) return false;
  const c = s[0]!;
  if (c === ".") return !/^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s);
  if (!/[-+0-9]/.test(c)) return true;
  if (TIMESTAMP.test(s)) return false;
  const plain = s.replaceAll("_", "");
  return !(GO_INT.test(plain) || YAML_FLOAT.test(plain) || /^-0[bB][01]+$/.test(plain));
}

const isBase60Float = (s: string) => /^[-+0-9]/.test(s) && s.includes(":") && BASE60_FLOAT.test(s);

const isBreak = (c: string | undefined) =>
  c === "\r" || c === "\n" || c === "\u0085" || c === "\u2028" || c === "\u2029";
const isBlank = (c: string | undefined) => c === " " || c === "\t";
function isPrintable(c: string): boolean {
  const cp = c.codePointAt(0)!;
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff)
  );
}

interface Analysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

/** libyaml's yaml_emitter_analyze_scalar (block context; the emitter is in unicode mode). */
function analyze(value: string): Analysis {
  if (value === "")
    return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  const chars = [...value];
  let blockIndicators = value.startsWith("---") || value.startsWith("...");
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  chars.forEach((c, i) => {
    const followedByWhitespace = i + 1 >= chars.length || isBlank(chars[i + 1]);
    if (i === 0) {
      if ("#,[]{}&*!|>'\"%@`".includes(c)) blockIndicators = true;
      else if ((c === "?" || c === ":" || c === "-") && followedByWhitespace) blockIndicators = true;
    } else if (c === ":" && followedByWhitespace) blockIndicators = true;
    else if (c === "#" && precededByWhitespace) blockIndicators = true;
    if (!isPrintable(c)) special = true;
    const last = i + 1 === chars.length;
    if (c === " ") {
      if (i === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlank(c) || isBreak(c);
  });
  let blockPlainAllowed = true;
  let singleQuotedAllowed = true;
  let blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlainAllowed = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) blockPlainAllowed = singleQuotedAllowed = false;
  if (spaceBreak || special) blockPlainAllowed = singleQuotedAllowed = blockAllowed = false;
  if (lineBreaks || blockIndicators) blockPlainAllowed = false;
  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

export type ScalarStyle = "plain" | "single" | "double" | "literal";

/** encoder.stringv's request, then yaml_emitter_select_scalar_style's verdict. */
export function scalarStyle(value: string, isKey: boolean): ScalarStyle {
  const canUsePlain = resolvesToString(value) && !isBase60Float(value);
  let style: ScalarStyle = value.includes("\n") ? "literal" : canUsePlain ? "plain" : "double";
  const a = analyze(value);
  if (isKey && a.multiline) style = "double";
  if (style === "plain" && (!a.blockPlainAllowed || (value === "" && isKey))) style = "single";
  if (style === "single" && !a.singleQuotedAllowed) style = "double";
  if (style === "literal" && (!a.blockAllowed || isKey)) style = "double";
  return style;
}

function foldLine(out: YamlOut, indent: number): void {
  out.write(`\n${" ".repeat(indent)}`);
}

export function writePlainOrSingle(
  out: YamlOut,
  value: string,
  indent: number,
  single: boolean,
  allowBreaks: boolean,
): void {
  const chars = [...value];
  if (single) out.write("'");
  let spaces = false;
  chars.forEach((c, i) => {
    if (c === " ") {
      const inside = !single || (i > 0 && i < chars.length - 1);
      if (allowBreaks && !spaces && out.column > BEST_WIDTH && inside && chars[i + 1] !== " ") foldLine(out, indent);
      else out.write(c);
      spaces = true;
    } else {
      out.write(single && c === "'" ? "''" : c);
      spaces = false;
    }
  });
  if (single) out.write("'");
}

const ESCAPES: Record<number, string> = {
  0x00: "0",
  0x07: "a",
  0x08: "b",
  0x09: "t",
  0x0a: "n",
  0x0b: "v",
  0x0c: "f",
  0x0d: "r",
  0x1b: "e",
  0x22: '"',
  0x5c: "\\",
  0x85: "N",
  0xa0: "_",
  0x2028: "L",
  0x2029: "P",
};

export function writeDoubleQuoted(out: YamlOut, value: string, indent: number, allowBreaks: boolean): void {
  const chars = [...value];
  out.write('"');
  let spaces = false;
  chars.forEach((c, i) => {
    const cp = c.codePointAt(0)!;
    if (!isPrintable(c) || cp === 0xfeff || isBreak(c) || c === '"' || c === "\\") {
      const hex = (w: number) => cp.toString(16).toUpperCase().padStart(w, "0");
      out.write(`\\${ESCAPES[cp] ?? (cp <= 0xff ? `x${hex(2)}` : cp <= 0xffff ? `u${hex(4)}` : `U${hex(8)}`)}`);
      spaces = false;
    } else if (c === " ") {
      if (allowBreaks && !spaces && out.column > BEST_WIDTH && i > 0 && i < chars.length - 1) {
        foldLine(out, indent);
        if (chars[i + 1] === " ") out.write("\\");
      } else out.write(c);
      spaces = true;
    } else {
      out.write(c);
      spaces = false;
    }
  });
  out.write('"');
}

export function writeLiteral(out: YamlOut, value: string, indent: number): void {
  const chars = [...value];
  let hints = isBreak(chars[0]) || chars[0] === " " ? String(BEST_INDENT) : "";
  const last = chars.length - 1;
  if (!isBreak(chars[last])) hints += "-";
  else if (last === 0 || isBreak(chars[last - 1])) hints += "+";
  out.write(`|${hints}\n`);
  let breaks = true;
  for (const c of chars) {
    if (isBreak(c)) {
      out.write(c);
      out.column = 0; // libyaml's write_break: U+2028 and friends end a line too
      breaks = true;
    } else {
      if (breaks) out.write(" ".repeat(indent));
      out.write(c);
      breaks = false;
    }
  }
}
