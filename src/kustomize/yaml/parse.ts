// Reading YAML as kustomize (kyaml, on go-yaml v3) reads it: plain scalars resolved by go-yaml v3's
// rules (YAML 1.2 booleans — `yes`/`on` stay strings — but Go's integer syntax, so `0123` is octal),
// quoted scalars always strings, anchors, aliases and merge keys expanded. Errors name the source,
// the document index and the line and column. Nesting depth and alias expansion are limited
// (limits.ts) before and while the document is converted, so a hostile file fails fast.
import { FlotillaError } from "../../util/errors.js";
import {
  Composer,
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  Parser,
  type Scalar,
  visit,
} from "yaml";
import type { Json } from "./emit.js";
import { FALSE, NON_FINITE, PLAIN, plainScalarNote, QUOTED, resolvePlain, TRUE } from "./plain-scalars.js";
import { tooDeepOffset } from "../../util/yaml-nesting.js";
import { EXCESSIVE_ALIASING, excessiveAliasing, MAX_NESTING_DEPTH, tooDeep } from "./limits.js";
import { defaultQuoted, type ScalarNote, setNote } from "./scalar-style.js";
import { parseSimpleYaml } from "./simple-yaml.js";
import { blockAtEndOfInput, foldedRoundTrip } from "./block-scalars.js";

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
  /** Each alias's anchored node, found in one pass (the library's own lookup walks the document per alias). */
  anchored: Map<Node, Node | undefined>;
  /** Nodes converted so far, and how many of them while expanding an alias (go-yaml's counters). */
  decoded: number;
  fromAliases: number;
  aliasDepth: number;
  /** A repeated mapping key: refused (kyaml, for resources) or the later one kept (kustomization files). */
  lastKeyWins: boolean;
  /** The text parsed, for a block scalar that ends it (block-scalars.ts). */
  text: string;
  printedByKyaml: boolean;
  /** Converting the document's metadata (1) or its annotations (2): see annotationsAsWritten. */
  metadataLevel: number;
}

export interface ParseOptions {
  /** Keep the later of two equal mapping keys, as kustomize reads a kustomization file; default: refuse. */
  lastKeyWins?: boolean;
  /**
   * The documents are resources or patches, which kustomize holds as kyaml nodes and prints through
   * RNode.MarshalJSON: a folded block scalar's value is what go-yaml's write and read make of it
   * (block-scalars.ts). Default: read as written (a kustomization file, values, configuration).
   */
  printedByKyaml?: boolean;
}

function fail(ctx: Context, node: Node | null | undefined, detail: string): never {
  const pos = ctx.lineOf(node?.range?.[0] ?? 0);
  throw new YamlSyntaxError(ctx.source, ctx.index, pos.line, pos.column, detail);
}

/** A block scalar's text as go-yaml v3 reads it (and, for a resource, as kustomize prints it). */
function blockText(ctx: Context, node: Scalar, text: string): string {
  const start = node.range?.[0] ?? 0;
  const header = /^[|>][0-9+-]*/.exec(ctx.text.slice(start, start + 4))?.[0] ?? "";
  const read = blockAtEndOfInput(text, ctx.text, node.range?.[1] ?? -1, header.includes("-"));
  // kustomize rewrites a resource's annotations at the end of a build (RemoveBuildAnnotations sets
  // them anew from strings), so an annotation keeps no folded style to print through.
  const printedFolded = node.type === "BLOCK_FOLDED" && ctx.printedByKyaml && ctx.metadataLevel !== 2;
  return printedFolded ? foldedRoundTrip(read) : read;
}

function scalarValue(ctx: Context, node: Scalar): Json {
  let text = String(node.value ?? "");
  if (node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED") text = blockText(ctx, node, text);
  // go-yaml reads these as floats that JSON (and so kustomize's output) cannot hold.
  if (!node.tag && node.type === "PLAIN" && NON_FINITE.has(text))
    fail(ctx, node, `${text} (infinity or NaN) cannot be represented; quote it if it is a string`);
  if (node.tag)
    return resolveTagged(node.tag, text, () => fail(ctx, node, `cannot read ${JSON.stringify(text)} as ${node.tag}`));
  return node.type === "PLAIN" ? resolvePlain(text) : text;
}

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

function toJson(ctx: Context, node: Node | null | undefined, seen: Set<Node>, depth = 0): Json {
  if (node === null || node === undefined) return null;
  ctx.decoded++;
  if (ctx.aliasDepth > 0) ctx.fromAliases++;
  if (excessiveAliasing(ctx.decoded, ctx.fromAliases)) fail(ctx, node, EXCESSIVE_ALIASING);
  if (isAlias(node)) {
    const target = ctx.anchored.get(node);
    if (!target) fail(ctx, node, `unknown alias *${node.source}`);
    if (seen.has(target)) fail(ctx, node, `alias *${node.source} refers to itself`);
    ctx.aliasDepth++;
    try {
      return toJson(ctx, target, new Set([...seen, target]), depth);
    } finally {
      ctx.aliasDepth--;
    }
  }
  if (isScalar(node)) return scalarValue(ctx, node);
  // Aliases can nest deeper than the text does (each anchor one level around the previous one).
  if (depth >= MAX_NESTING_DEPTH) fail(ctx, node, tooDeep());
  if (isSeq(node)) {
    const out = node.items.map((item) => toJson(ctx, item as Node, seen, depth + 1));
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
      const level = ctx.metadataLevel;
      if (depth === 0 && key === "metadata") ctx.metadataLevel = 1;
      else if (depth === 1 && level === 1 && key === "annotations") ctx.metadataLevel = 2;
      else if (depth <= 1) ctx.metadataLevel = 0;
      const value = toJson(ctx, pair.value as Node, seen, depth + 1);
      ctx.metadataLevel = level;
      if (key === "<<" && isScalar(keyNode) && keyNode.type === "PLAIN") {
        for (const m of Array.isArray(value) ? value : [value]) {
          if (m && typeof m === "object" && !Array.isArray(m)) merged.push(m);
          else fail(ctx, keyNode, "merge key << needs a mapping or a list of mappings");
        }
        continue;
      }
      if (Object.hasOwn(out, key)) {
        if (!ctx.lastKeyWins) fail(ctx, keyNode, `mapping key "${key}" already defined`);
        delete out[key];
      }
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
export function parseYamlDocuments(text: string, source: string, options: ParseOptions = {}): ParsedDocument[] {
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
  // The fast reader gives up on a repeated key, so the full one decides what it means.
  return parseSimpleYaml(text) ?? parseYamlDocumentsFully(text, source, lineOf, options);
}

/** The node each alias refers to: the latest node before it with that anchor, as the library resolves it. */
function anchoredNodes(doc: Document): Map<Node, Node | undefined> {
  const latest = new Map<string, Node>();
  const out = new Map<Node, Node | undefined>();
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) out.set(node, latest.get(node.source));
      else if (node.anchor) latest.set(node.anchor, node);
    },
  });
  return out;
}

/** The `yaml` library's full parse (every YAML feature, positioned errors), nesting checked first. */
export function parseYamlDocumentsFully(
  text: string,
  source: string,
  lineOf = lineIndex(text),
  options: ParseOptions = {},
): ParsedDocument[] {
  const tokens = Array.from(new Parser().parse(text));
  let documentIndex = 0;
  for (const token of tokens) {
    const at = tooDeepOffset(token);
    if (at !== undefined) {
      const pos = lineOf(at);
      throw new YamlSyntaxError(source, documentIndex, pos.line, pos.column, tooDeep());
    }
    if (token.type === "document") documentIndex++;
  }
  const composer = new Composer({ schema: "failsafe", uniqueKeys: false, prettyErrors: false, merge: false });
  const list = Array.from(composer.compose(tokens));
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
    const anchored = anchoredNodes(doc);
    const ctx: Context = {
      doc,
      source,
      index,
      lineOf,
      anchored,
      decoded: 0,
      fromAliases: 0,
      aliasDepth: 0,
      lastKeyWins: !!options.lastKeyWins,
      text,
      printedByKyaml: !!options.printedByKyaml,
      metadataLevel: 0,
    };
    const value = toJson(ctx, doc.contents as Node, new Set());
    if (value !== null) out.push({ value, index });
  });
  return out;
}
