// A fast reader for the plain block YAML most manifests and kustomization files are written in:
// block mappings and sequences, simple keys, plain and simply-quoted scalars, literal block scalars
// (`|`, `|-`, `|+`), comment lines, `---`. Anything else (flow collections, anchors, tags, folded
// scalars, escapes, multi-line plain scalars,
// trailing comments, tabs, duplicate keys) returns undefined and the full parser reads the text.
// It must give exactly what the full parser gives, value and style notes alike; a test compares the
// two over every YAML file of the kustomize corpus. It exists because the general-purpose parser
// was the largest cost of a build (about 150 ns per byte).
import type { Json } from "./emit.js";
import { MAX_NESTING_DEPTH } from "./limits.js";
import { plainScalarNote, QUOTED, resolvePlain } from "./plain-scalars.js";
import { type ScalarNote, setNote } from "./scalar-style.js";

interface Line {
  indent: number;
  /** The line without indentation and trailing spaces; "" for blank and comment-only lines. */
  text: string;
  /** The line as written (block scalar content keeps it). */
  raw: string;
  /** The input's last line, which no line break ends. */
  unterminated?: boolean;
}

class Unsupported extends Error {}

const KEY = /^([A-Za-z0-9_][A-Za-z0-9_./-]*):(?: +(.*))?$/;
const NON_FINITE = /^[-+]?\.(inf|Inf|INF|nan|NaN|NAN)$/;
// Plain scalars that start like YAML syntax, or could continue it, are left to the full parser.
const SPECIAL_START = /^([[\]{}&*!|>%@`#,?:]|-$|- )/;

/** `[a, "b", 1]`: a one-line flow sequence of simple scalars (commas only between items). */
function flowSequence(raw: string): Json[] {
  const inner = raw.slice(1, -1).trim();
  const out: Json[] = [];
  if (inner === "") return out;
  let i = 0;
  while (i <= inner.length) {
    let item: string;
    const q = inner[i];
    if (q === '"' || q === "'") {
      const close = inner.indexOf(q, i + 1);
      if (close < 0) throw new Unsupported();
      item = inner.slice(i, close + 1);
      i = close + 1;
    } else {
      const comma = inner.indexOf(",", i);
      item = inner.slice(i, comma < 0 ? inner.length : comma).trim();
      if (/[[\]{}#&*!|>'"%@`]/.test(item) || item === "") throw new Unsupported();
      i = comma < 0 ? inner.length : comma;
    }
    const { value, note } = scalar(item);
    if (typeof value === "object" && value !== null) throw new Unsupported();
    out.push(value);
    if (note) setNote(out, out.length - 1, note);
    while (inner[i] === " ") i++;
    if (i >= inner.length) break;
    if (inner[i] !== ",") throw new Unsupported();
    i++;
    while (inner[i] === " ") i++;
    if (i >= inner.length) throw new Unsupported(); // a trailing comma
  }
  return out;
}

function scalar(raw: string): { value: Json; note?: ScalarNote } {
  if (raw === "[]") return { value: [] };
  if (raw === "{}") return { value: {} };
  if (raw.startsWith("[") && raw.endsWith("]")) return { value: flowSequence(raw) };
  const quote = raw[0];
  if (quote === '"' || quote === "'") {
    const body = raw.slice(1, -1);
    if (raw.length < 2 || raw.at(-1) !== quote || body.includes(quote) || body.includes("\\")) throw new Unsupported();
    return { value: body, note: QUOTED };
  }
  if (SPECIAL_START.test(raw) || raw.includes(": ") || raw.includes(" #") || raw.endsWith(":")) throw new Unsupported();
  if (NON_FINITE.test(raw)) throw new Unsupported(); // the full parser reports these
  const value = resolvePlain(raw);
  return { value, note: plainScalarNote(raw, value) };
}

const isItem = (text: string) => text === "-" || text.startsWith("- ");
// Literal block scalars with clip or strip chomping (keep, `|+`, and folded `>` go to the full parser).
const BLOCK_HEADER = /^\|(-?)$/;

class Reader {
  private i = 0;
  /** Blocks open; past the limit the full parser takes over and reports it. */
  private depth = 0;
  constructor(private readonly lines: Line[]) {
    this.skip();
  }

  /** Moves past blank and comment lines. */
  private skip(): void {
    while (this.i < this.lines.length && this.lines[this.i]!.text === "") this.i++;
  }

  private advance(): void {
    this.i++;
    this.skip();
  }

  private get line(): Line | undefined {
    return this.lines[this.i];
  }

  done(): boolean {
    return this.i >= this.lines.length;
  }

  /** The block starting at the current line, which sits at `indent`. */
  block(indent: number): Json {
    const line = this.line!;
    if (line.indent !== indent) throw new Unsupported();
    return isItem(line.text) ? this.sequence(indent) : this.mapping(indent);
  }

  private child(parentIndent: number, sameIndentSequence: boolean): Json {
    const next = this.line;
    if (!next) return null;
    if (next.indent > parentIndent) return this.block(next.indent);
    if (sameIndentSequence && next.indent === parentIndent && isItem(next.text)) return this.sequence(parentIndent);
    return null;
  }

  /** A value on the current line (already split off), or a literal block scalar below it. */
  private value(raw: string, parentIndent: number): { value: Json; note?: ScalarNote } {
    const header = BLOCK_HEADER.exec(raw);
    if (!header) {
      this.advance();
      return scalar(raw);
    }
    // Content: the following lines indented deeper than the parent, blank ones included.
    const content: string[] = [];
    let blockIndent = -1;
    let j = this.i + 1;
    for (; j < this.lines.length; j++) {
      const l = this.lines[j]!;
      const blank = l.raw.trim() === "";
      // A blank line holding spaces beyond the indentation keeps them in YAML; leave that to the full parser.
      if (blank && l.raw.length > 0 && (blockIndent < 0 || l.raw.length > blockIndent)) throw new Unsupported();
      if (!blank) {
        const indent = l.raw.length - l.raw.trimStart().length;
        if (blockIndent < 0) blockIndent = indent;
        if (indent <= parentIndent || indent < blockIndent) break;
      }
      content.push(blank ? "" : l.raw.slice(blockIndent));
    }
    if (blockIndent <= parentIndent) throw new Unsupported();
    // Trailing blank lines belong to the block only for chomping; the next key starts after them.
    let end = content.length;
    while (end > 0 && content[end - 1] === "") end--;
    const body = content.slice(0, end).map((l) => (l.trim() === "" ? "" : l));
    const text = body.join("\n");
    const chomp = header[1];
    // go-yaml keeps no final line break a block's last line does not have (block-scalars.ts).
    const unterminated = end > 0 && this.lines[this.i + end]!.unterminated;
    const value = chomp === "-" || unterminated ? text : `${text}\n`;
    this.i = j;
    this.skip();
    return { value, note: QUOTED };
  }

  /** Runs `read` one level deeper. */
  private nested<T>(read: () => T): T {
    if (this.depth >= MAX_NESTING_DEPTH) throw new Unsupported();
    this.depth++;
    try {
      return read();
    } finally {
      this.depth--;
    }
  }

  private mapping(indent: number): Record<string, Json> {
    return this.nested(() => this.mappingBody(indent));
  }

  private sequence(indent: number): Json[] {
    return this.nested(() => this.sequenceBody(indent));
  }

  private mappingBody(indent: number): Record<string, Json> {
    const out: Record<string, Json> = {};
    while (!this.done()) {
      const line = this.line!;
      if (line.indent < indent) break;
      if (line.indent > indent || isItem(line.text)) throw new Unsupported();
      const m = KEY.exec(line.text);
      if (!m) throw new Unsupported();
      const key = m[1]!;
      if (Object.hasOwn(out, key) || key === "<<" || typeof resolvePlain(key) !== "string") throw new Unsupported();
      if (m[2] === undefined || m[2] === "") {
        this.advance();
        out[key] = this.child(indent, true);
      } else {
        const { value, note } = this.value(m[2], indent);
        out[key] = value;
        if (note) setNote(out, key, note);
      }
    }
    return out;
  }

  private sequenceBody(indent: number): Json[] {
    const out: Json[] = [];
    while (!this.done()) {
      const line = this.line!;
      if (line.indent < indent) break;
      if (line.indent > indent || !isItem(line.text)) {
        // A sequence at a mapping's own indent ends where the mapping's next key starts.
        if (line.indent === indent) break;
        throw new Unsupported();
      }
      const item = line.text === "-" ? "" : line.text.slice(2).replace(/^ +/, "");
      const itemIndent = indent + (line.text.length - item.length);
      if (item === "") {
        this.advance();
        out.push(this.child(indent, false));
      } else if (isItem(item)) throw new Unsupported();
      else if (KEY.test(item)) {
        // A compact mapping: its first key shares the dash's line.
        this.lines[this.i] = { ...line, indent: itemIndent, text: item };
        out.push(this.mapping(itemIndent));
      } else {
        const { value, note } = this.value(item, indent);
        out.push(value);
        if (note) setNote(out, out.length - 1, note);
      }
    }
    return out;
  }
}

function readDocument(lines: Line[]): Json {
  const first = lines.find((l) => l.text !== "");
  if (!first) return null;
  const reader = new Reader(lines);
  const value = reader.block(first.indent);
  if (!reader.done()) throw new Unsupported();
  return value;
}

/** A document and its 0-based position; parse.ts's ParsedDocument, declared here so neither file imports the other. */
interface SimpleDocument {
  value: Json;
  index: number;
}

/** The documents of `text`, or undefined when it uses anything beyond the simple subset. */
export function parseSimpleYaml(text: string): SimpleDocument[] | undefined {
  if (text.includes("\t") || text.includes("\r")) return undefined;
  const docs: Line[][] = [];
  let current: Line[] = [];
  let started = false;
  for (const raw of text.split("\n")) {
    const trimmed = raw.trimEnd();
    const content = trimmed.trimStart();
    if (content === "" || content.startsWith("#")) {
      current.push({ indent: 0, text: "", raw });
      continue;
    }
    if (trimmed === "---") {
      // A leading `---` opens the first document rather than ending an empty one.
      if (started) docs.push(current);
      current = [];
      started = true;
      continue;
    }
    if (trimmed.startsWith("---") || trimmed.startsWith("...") || trimmed.startsWith("%")) return undefined;
    current.push({ indent: trimmed.length - content.length, text: content, raw });
    started = true;
  }
  docs.push(current);
  const last = current[current.length - 1];
  if (last && !text.endsWith("\n")) last.unterminated = true;
  try {
    const out: SimpleDocument[] = [];
    docs.forEach((lines, index) => {
      const value = readDocument(lines);
      if (value !== null) out.push({ value, index });
    });
    return out;
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
}
