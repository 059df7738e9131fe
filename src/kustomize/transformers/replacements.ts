// replacements: copy a value from one field of a source object into fields of target objects.
// Field paths are dotted (`spec.template.spec.containers.[name=app].image`, `0` indexes, `*` wildcards);
// a scalar target keeps its type (a string "5" written into spec.replicas stays the number 5), as
// kyaml copies only the source's text into the target node: a string target gets the source's text
// (`0x1F`, `1.0` as written) as a string.
import type { ResMap } from "../accumulate.js";
import { KustomizeError } from "../errors.js";
import type { Target } from "../kustomization-file.js";
import type { Loader } from "../loader.js";
import { selectTargets } from "../patches/target.js";
import { groupVersion, type JsonObject, jsonText, kindOf, nameOf, namespaceOf, type Resource } from "../resource.js";
import type { Json } from "../yaml/emit.js";
import { parseYamlDocuments } from "../yaml/parse.js";
import {
  notesOf,
  rawText,
  type ScalarNote,
  setNote,
  type SharedNode,
  sharedAt,
  writeShared,
} from "../yaml/scalar-style.js";

interface Options {
  delimiter?: string;
  index?: number;
  create?: boolean;
}
interface Replacement {
  path?: string;
  source?: Target & { fieldPath?: string; options?: Options };
  sourceValue?: string;
  targets?: { select?: Target; reject?: Target[]; fieldPaths?: string[]; options?: Options }[];
}

const isMap = (v: Json | undefined): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

function splitFieldPath(path: string): string[] {
  const out: string[] = [];
  let cur = "";
  let bracket = 0;
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (c === "\\" && path[i + 1] === ".") {
      cur += ".";
      i++;
    } else if (c === "." && bracket === 0) {
      out.push(cur);
      cur = "";
    } else {
      if (c === "[") bracket++;
      if (c === "]") bracket--;
      cur += c;
    }
  }
  out.push(cur);
  return out;
}

/** Every (parent, key) the path reaches; creates missing maps when asked. */
function locate(node: Json, segs: string[], create: boolean): { parent: JsonObject | Json[]; key: string | number }[] {
  if (segs.length === 0) return [];
  const [seg, ...rest] = segs;
  const visit = (parent: JsonObject | Json[], key: string | number) => {
    if (rest.length === 0) return [{ parent, key }];
    let child = (parent as Record<string | number, Json>)[key];
    if ((child === undefined || child === null) && create && !Array.isArray(parent))
      child = (parent as JsonObject)[key as string] = {};
    return child === undefined ? [] : locate(child, rest, create);
  };
  if (Array.isArray(node)) {
    const sel = /^\[(.+?)=(.*)\]$/.exec(seg!);
    if (sel) return node.flatMap((el, i) => (isMap(el) && String(el[sel[1]!]) === sel[2] ? visit(node, i) : []));
    if (seg === "*") return node.flatMap((_, i) => visit(node, i));
    const i = Number(seg);
    return Number.isInteger(i) && i >= 0 && i < node.length ? visit(node, i) : [];
  }
  if (!isMap(node)) return [];
  if (seg === "*") return Object.keys(node).flatMap((k) => visit(node, k));
  if (node[seg!] === undefined && !(create && rest.length === 0)) {
    if (!create) return [];
    node[seg!] = {};
  }
  return visit(node, seg!);
}

function exactSource(resources: Resource[], s: Target): Resource {
  const matches = resources.filter((r) => {
    const gv = groupVersion(r);
    const ids = [
      { name: nameOf(r), namespace: namespaceOf(r) },
      ...r.previous.map((p) => ({ name: p.name, namespace: p.namespace })),
    ];
    return (
      (!s.group || s.group === gv.group) &&
      (!s.version || s.version === gv.version) &&
      (!s.kind || s.kind === kindOf(r)) &&
      ids.some((id) => (!s.name || s.name === id.name) && (!s.namespace || s.namespace === (id.namespace || "default")))
    );
  });
  const desc = jsonText(s);
  if (matches.length === 0) throw new KustomizeError(`nothing selected by ${desc}`);
  if (matches.length > 1) throw new KustomizeError(`multiple matches for selector ${desc}`);
  return matches[0]!;
}

/** A source value with the text kyaml's node holds for it, and its style note. */
interface Source {
  value: Json;
  raw: string;
  note?: ScalarNote;
}

function sourceValue(resources: Resource[], rep: Replacement): Source {
  if (rep.sourceValue !== undefined) return { value: rep.sourceValue, raw: String(rep.sourceValue) };
  const source = exactSource(resources, rep.source!);
  const fieldPath = rep.source!.fieldPath ?? "metadata.name";
  const found = locate(source.obj, splitFieldPath(fieldPath), false);
  if (!found.length)
    throw new KustomizeError(`fieldPath \`${fieldPath}\` is missing for replacement source ${jsonText(rep.source)}`);
  const { parent, key } = found[0]!;
  const value = (parent as Record<string | number, Json>)[key]!;
  const opts = rep.source!.options;
  if (opts?.delimiter !== undefined && typeof value === "string") {
    const parts = value.split(opts.delimiter);
    const i = opts.index ?? 0;
    if (i < 0 || i >= parts.length) throw new KustomizeError(`options.index ${i} is out of bounds for value ${value}`);
    return { value: parts[i]!, raw: parts[i]! };
  }
  return { value, raw: rawText(parent, key), note: notesOf(parent)?.get(key) };
}

const isScalar = (v: Json | undefined): boolean => v === null || (v !== undefined && typeof v !== "object");

function setTarget(parent: JsonObject | Json[], key: string | number, src: Source, opts: Options | undefined): void {
  const slot = parent as Record<string | number, Json>;
  const current = slot[key];
  const { value } = src;
  if (opts?.delimiter !== undefined && typeof current === "string") {
    const parts = current.split(opts.delimiter);
    const i = opts.index ?? 0;
    const text = typeof value === "string" ? value : src.raw;
    if (i < 0) parts.unshift(text);
    else if (i >= parts.length) parts.push(text);
    else parts[i] = text;
    slot[key] = parts.join(opts.delimiter);
    return;
  }
  if (typeof current === "string" && value !== null && isScalar(value)) slot[key] = src.raw;
  else if (typeof value === "string" && typeof current === "number" && /^-?\d+(\.\d+)?$/.test(value))
    slot[key] = Number(value);
  else if (typeof value === "string" && typeof current === "boolean" && /^(true|false)$/.test(value))
    slot[key] = value === "true";
  else if (isScalar(current) && isScalar(value)) {
    slot[key] = value;
    setNote(parent, key, src.note?.raw !== undefined ? { raw: src.note.raw } : undefined);
  } else {
    // A new or non-scalar target takes the source's node, style included.
    slot[key] = structuredClone(value);
    setNote(parent, key, src.note);
  }
}

/** kyaml writes a replacement into the target's node: a node held in several fields changes in all. */
function writeSharedScalar(r: Resource, parent: JsonObject | Json[], key: string | number, shared: SharedNode): void {
  const value = (parent as Record<string | number, Json>)[key]!;
  if (!isScalar(value)) return;
  const note: ScalarNote = { ...notesOf(parent)?.get(key), shared };
  setNote(parent, key, note);
  writeShared(r.obj, new Map([[shared, { value, note }]]));
}

function loadReplacements(entries: Json[] | undefined, loader: Loader, where: string): Replacement[] {
  const out: Replacement[] = [];
  for (const e of (entries ?? []) as Replacement[]) {
    if (e.path && (e.source || e.targets))
      throw new KustomizeError(`${where}: cannot specify both path and inline replacement`);
    if (!e.path) {
      out.push(e);
      continue;
    }
    const path = loader.resolve(e.path, "replacements", where);
    for (const doc of parseYamlDocuments(loader.read(path), e.path)) {
      const v = doc.value;
      out.push(...((Array.isArray(v) ? v : [v]) as Replacement[]));
    }
  }
  return out;
}

export function transformReplacements(
  resmap: ResMap,
  entries: Json[] | undefined,
  loader: Loader,
  where: string,
): void {
  for (const rep of loadReplacements(entries, loader, where)) {
    if ((!rep.source && rep.sourceValue === undefined) || !rep.targets?.length) {
      throw new KustomizeError(`${where}: replacements must specify a source and at least one target`);
    }
    if (rep.source && rep.sourceValue !== undefined)
      throw new KustomizeError(`${where}: value and resource selectors are mutually exclusive`);
    const value = sourceValue(resmap.list, rep);
    for (const target of rep.targets) {
      let selected = target.select ? selectTargets(resmap.list, target.select) : [...resmap.list];
      for (const reject of target.reject ?? []) {
        const rejected = new Set(selectTargets(resmap.list, reject));
        selected = selected.filter((r) => !rejected.has(r));
      }
      for (const r of selected) {
        for (const fieldPath of target.fieldPaths ?? ["metadata.name"]) {
          const places = locate(r.obj, splitFieldPath(fieldPath), target.options?.create ?? false);
          if (!places.length) {
            throw new KustomizeError(
              `${where}: unable to ${target.options?.create ? "find or create" : "find"} field "${fieldPath}" in replacement target ${kindOf(r)}/${nameOf(r)}`,
            );
          }
          for (const { parent, key } of places) {
            const shared = sharedAt(parent, key);
            setTarget(parent, key, value, target.options);
            if (shared) writeSharedScalar(r, parent, key, shared);
          }
        }
      }
    }
  }
}
