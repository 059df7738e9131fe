// Go text/template's lexer (text/template/parse/lex.go) with the operator's `<<` `>>` delimiters:
// text, actions with trim markers (`<<- ` and ` ->>`), comments, strings, raw strings, characters,
// numbers, fields, variables, keywords, pipes, declarations and parentheses.
import { FlotillaError } from "../../../util/errors.js";

export type ItemType =
  | "text"
  | "left"
  | "right"
  | "space"
  | "string"
  | "raw"
  | "char"
  | "number"
  | "bool"
  | "nil"
  | "dot"
  | "field"
  | "variable"
  | "identifier"
  | "keyword"
  | "pipe"
  | "declare"
  | "assign"
  | "lparen"
  | "rparen"
  | "comma"
  | "eof";

export interface Item {
  type: ItemType;
  val: string;
  pos: number;
  line: number;
}

export class LexError extends FlotillaError {
  override name = "LexError";
  constructor(
    readonly line: number,
    message: string,
    /** The line of the action the error is in (Go adds "in action started at" when it differs). */
    readonly actionLine?: number,
  ) {
    super(message);
  }
}

const LEFT = "<<";
const RIGHT = ">>";
const KEYWORDS = new Set(["block", "break", "continue", "define", "else", "end", "if", "range", "template", "with"]);
const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\r" || c === "\n";
const isAlnum = (c: string | undefined) => c !== undefined && /[\p{L}\p{Nd}_]/u.test(c);

export function lex(text: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  let line = 1;
  let parenDepth = 0;
  const emit = (type: ItemType, start: number, end: number, startLine: number) =>
    items.push({ type, val: text.slice(start, end), pos: start, line: startLine });
  const countLines = (s: string) => s.split("\n").length - 1;

  while (pos < text.length) {
    // Text up to the next action.
    const at = text.indexOf(LEFT, pos);
    const end = at < 0 ? text.length : at;
    let trimmedEnd = end;
    const leftTrim = at >= 0 && text[at + 2] === "-" && isSpace(text[at + 3]);
    if (leftTrim) while (trimmedEnd > pos && isSpace(text[trimmedEnd - 1])) trimmedEnd--;
    if (trimmedEnd > pos) emit("text", pos, trimmedEnd, line);
    line += countLines(text.slice(pos, end));
    if (at < 0) break;
    pos = at + (leftTrim ? 4 : 2);
    // A comment: `<</* ... */>>`, possibly with trim markers.
    if (text.startsWith("/*", pos)) {
      const close = text.indexOf("*/", pos + 2);
      if (close < 0) throw new LexError(line, "unclosed comment");
      let after = close + 2;
      const rightTrim = text[after] === " " && text.startsWith("-" + RIGHT, after + 1);
      if (rightTrim) after += 2;
      if (!text.startsWith(RIGHT, after)) throw new LexError(line, "comment ends before closing delimiter");
      line += countLines(text.slice(pos, after));
      pos = after + 2;
      if (rightTrim) while (pos < text.length && isSpace(text[pos])) line += text[pos++] === "\n" ? 1 : 0;
      continue;
    }
    emit("left", at, at + 2, line);
    // Go names the action's first line when an error inside it is on a later one.
    const actionLine = line;
    // Inside the action.
    for (;;) {
      const c = text[pos];
      if (c === undefined) throw new LexError(line, "unclosed action", actionLine);
      const rightTrimHere = isSpace(c) && text[pos + 1] === "-" && text.startsWith(RIGHT, pos + 2);
      if (rightTrimHere || (text.startsWith(RIGHT, pos) && parenDepth === 0)) {
        if (rightTrimHere) pos += 2;
        emit("right", pos, pos + 2, line);
        pos += 2;
        if (rightTrimHere) while (pos < text.length && isSpace(text[pos])) line += text[pos++] === "\n" ? 1 : 0;
        break;
      }
      if (text.startsWith(RIGHT, pos)) throw new LexError(line, "unclosed left paren", actionLine);
      const start = pos;
      const startLine = line;
      if (isSpace(c)) {
        while (isSpace(text[pos]) && !(text[pos + 1] === "-" && text.startsWith(RIGHT, pos + 2) && isSpace(text[pos])))
          line += text[pos++] === "\n" ? 1 : 0;
        if (pos === start) pos++; // a lone space before ` ->>` is handled on the next turn
        emit("space", start, pos, startLine);
      } else if (c === "=") {
        emit("assign", pos, ++pos, line);
      } else if (c === ":") {
        if (text[pos + 1] !== "=") throw new LexError(line, "expected :=", actionLine);
        emit("declare", pos, (pos += 2), line);
      } else if (c === "|") {
        emit("pipe", pos, ++pos, line);
      } else if (c === '"') {
        pos++;
        while (text[pos] !== '"') {
          if (text[pos] === "\\") pos++;
          if (pos >= text.length || text[pos] === "\n")
            throw new LexError(line, "unterminated quoted string", actionLine);
          pos++;
        }
        emit("string", start, ++pos, line);
      } else if (c === "`") {
        const close = text.indexOf("`", pos + 1);
        if (close < 0) throw new LexError(line, "unterminated raw quoted string", actionLine);
        pos = close + 1;
        emit("raw", start, pos, line);
        line += countLines(text.slice(start, pos));
      } else if (c === "'") {
        pos++;
        while (text[pos] !== "'") {
          if (text[pos] === "\\") pos++;
          if (pos >= text.length || text[pos] === "\n")
            throw new LexError(line, "unterminated character constant", actionLine);
          pos++;
        }
        emit("char", start, ++pos, line);
      } else if (c === "$") {
        pos++;
        while (isAlnum(text[pos])) pos++;
        emit("variable", start, pos, line);
      } else if (c === "." && !/[0-9]/.test(text[pos + 1] ?? "")) {
        pos++;
        if (!isAlnum(text[pos])) {
          emit("dot", start, pos, line);
          continue;
        }
        while (isAlnum(text[pos])) pos++;
        emit("field", start, pos, line);
      } else if (c === "." || c === "+" || c === "-" || /[0-9]/.test(c)) {
        const m = /^[+-]?(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|[0-9_]*\.?[0-9_]*([eE][+-]?[0-9_]+)?)/.exec(
          text.slice(pos),
        )!;
        pos += Math.max(m[0].length, 1);
        if (isAlnum(text[pos]) || text[pos] === ".")
          throw new LexError(line, `bad number syntax: "${text.slice(start, pos + 1)}"`, actionLine);
        emit("number", start, pos, line);
      } else if (isAlnum(c)) {
        while (isAlnum(text[pos])) pos++;
        const word = text.slice(start, pos);
        const type: ItemType = KEYWORDS.has(word)
          ? "keyword"
          : word === "true" || word === "false"
            ? "bool"
            : word === "nil"
              ? "nil"
              : "identifier";
        emit(type, start, pos, line);
      } else if (c === "(") {
        parenDepth++;
        emit("lparen", pos, ++pos, line);
      } else if (c === ")") {
        if (--parenDepth < 0) throw new LexError(line, "unexpected right paren", actionLine);
        emit("rparen", pos, ++pos, line);
      } else if (c === ",") {
        emit("comma", pos, ++pos, line);
      } else {
        throw new LexError(line, `unrecognized character in action: ${JSON.stringify(c)}`, actionLine);
      }
    }
  }
  items.push({ type: "eof", val: "", pos: text.length, line });
  return items;
}
