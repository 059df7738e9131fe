// replacements: copy a value from one field of a source object into fields of target objects.
// Field paths are dotted (`spec.template.spec.containers.[name=app].image`, `0` indexes, `*` wildcards).
// kyaml copies only the source's text into a scalar target's node, which keeps its tag: a string
// target gets the text as written (`0x1F`, `1.0`) as a string; any other target must read the text
// as its own type (a string "5" into spec.replicas gives 5, `1.0` into an integer, `foo` into a
// boolean or anything into a null field fails, as kustomize does). A created field has no tag.
import type { ResMap } from "../res-map.js";
import { KustomizeError } from "../errors.js";
import type { Target } from "../kustomization-file.js";
import type { Loader } from "../loader.js";
import { selectTargets } from "../patches/target.js";
import { groupVersion, type JsonObject, jsonText, kindOf, nameOf, namespaceOf, type Resource } from "../resource.js";
import type { Json } from "../yaml/emit.js";
import { parseYamlDocuments } from "../yaml/parse.js";
import { type PlainTag, plainScalarNote, resolvePlainTagged } from "../yaml/plain-scalars.js";
import { isQuoted, notesOf, rawText, type ScalarNote, setNote } from "../yaml/scalar-style.js";
import { type SharedNode, sharedAt, writeShared } from "../yaml/shared-nodes.js";

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

/**
 * A field path split as kyaml's SmarterPathSplitter (kyaml/utils/pathsplitter.go) splits it: on dots,
 * a leading dot dropped (`.metadata.name`), `\.` kept in the key, and a segment opening with `[` joined
 * with the following ones up to the one closing with `]`; that bracketed run is a list selector when it
 * holds `=` (`[name=a.b]`), else a map key with its brackets trimmed (`[cert-manager.io/inject-ca-from]`).
 */
export function splitFieldPath(path: string): string[] {
  const split = path.split(".");
  if (split.length > 1 && split[0] === "") split.shift();
  const parts: string[] = [];
  for (const p of split) {
    const last = parts.length - 1;
    if (last >= 0 && parts[last]!.endsWith("\\")) parts[last] = parts[last]!.slice(0, -1) + "." + p;
    else parts.push(p);
  }
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const elem = parts[i]!;
    if (!elem.startsWith("[") || elem.endsWith("]")) {
      out.push(elem);
      continue;
    }
    const run = [elem];
    while (i < parts.length - 1) {
      run.push(parts[++i]!);
      if (parts[i]!.endsWith("]")) break;
    }
    const joined = run.join(".");
    out.push(joined.includes("=") ? joined : joined.replace(/^\[+|\]+$/g, ""));
  }
  return out;
}

/** A path kyaml cannot walk, in kyaml's words (the caller says whether it was a source or a target). */
class PathError extends Error {}

/** A list selector `[field=value]` (`[=value]` for a list of scalars), as kyaml splits it. */
function listSelector(seg: string): { field: string; value: string } | undefined {
  if (!seg.startsWith("[") || !seg.endsWith("]")) return undefined;
  const inner = seg.slice(1, -1);
  const eq = inner.indexOf("=");
  if (eq < 0) throw new PathError("list path element must contain fieldName=fieldValue for element to match");
  return { field: inner.slice(0, eq), value: inner.slice(eq + 1) };
}

/** The text kyaml compares a list selector with: the element's field (or the element) as a scalar. */
const selectorText = (v: Json | undefined): string | undefined =>
  v === undefined || v === null || typeof v === "object" ? undefined : String(v);

/**
 * How a selector's value matches: a source lookup (kyaml PathGetter, MatchElement) compares the text
 * exactly; a target (kyaml PathMatcher.doSeq) reads the value as an unanchored regular expression,
 * so `[name=app]` also selects `app-sidecar` and a dot matches any character.
 */
function selectorMatcher(value: string, exact: boolean): (text: string) => boolean {
  if (exact) return (text) => text === value;
  let re: RegExp;
  try {
    re = new RegExp(value, "u");
  } catch (e) {
    throw new KustomizeError(
      `list selector value ${JSON.stringify(value)} is not a valid regular expression: ${(e as Error).message}`,
    );
  }
  return (text) => re.test(text);
}

/**
 * A target path that goes on into a string field's text: kustomize 5.8 edits JSON or YAML held in a
 * string there (replacement.go: setValueInStructuredData); flotilla refuses it by name.
 */
class PathIntoText extends Error {
  constructor(readonly key: string | number) {
    super(`path goes into the text of field ${key}`);
  }
}

/**
 * Every (parent, key) the path reaches; creates missing maps when asked. `exact` is a source's
 * lookup (selectors compared as text), else a target's (selectors as regular expressions).
 */
function locate(
  node: Json,
  segs: string[],
  create: boolean,
  exact = false,
): { parent: JsonObject | Json[]; key: string | number }[] {
  if (segs.length === 0) return [];
  const [seg, ...rest] = segs;
  const visit = (parent: JsonObject | Json[], key: string | number) => {
    if (rest.length === 0) return [{ parent, key }];
    let child = (parent as Record<string | number, Json>)[key];
    if (!exact && typeof child === "string") throw new PathIntoText(key);
    if ((child === undefined || child === null) && create && !Array.isArray(parent))
      child = (parent as JsonObject)[key as string] = {};
    return child === undefined ? [] : locate(child, rest, create, exact);
  };
  // kyaml reads a bracketed segment as a list selector before it looks at the node.
  const sel = listSelector(seg!);
  if (exact && seg === "*") throw new PathError("wildcard is not supported in PathGetter");
  if (Array.isArray(node)) {
    if (sel) {
      const matches = selectorMatcher(sel.value, exact);
      return node.flatMap((el, i) => {
        const text = selectorText(sel.field === "" ? el : isMap(el) ? el[sel.field] : undefined);
        return text !== undefined && matches(text.trim()) ? visit(node, i) : [];
      });
    }
    if (seg === "*") return node.flatMap((_, i) => visit(node, i));
    if (exact && seg === "-") return node.length ? visit(node, node.length - 1) : [];
    const i = Number(seg);
    return Number.isInteger(i) && i >= 0 && i < node.length ? visit(node, i) : [];
  }
  if (!isMap(node)) return [];
  if (seg === "*") throw new PathError("wrong node kind: expected SequenceNode but got MappingNode");
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
  let found: ReturnType<typeof locate>;
  try {
    found = locate(source.obj, splitFieldPath(fieldPath), false, true);
  } catch (e) {
    if (e instanceof PathError) throw new KustomizeError(`error looking up replacement source: ${e.message}`);
    throw e;
  }
  if (!found.length)
    throw new KustomizeError(`fieldPath \`${fieldPath}\` is missing for replacement source ${jsonText(rep.source)}`);
  const { parent, key } = found[0]!;
  const value = (parent as Record<string | number, Json>)[key]!;
  // kyaml counts a null source, or an empty map or list, as missing.
  if (value === null || (typeof value === "object" && Object.keys(value).length === 0))
    throw new KustomizeError(`fieldPath \`${fieldPath}\` is missing for replacement source ${jsonText(rep.source)}`);
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

/** The text kyaml's source node holds: a scalar's text, nothing for a map or a list. */
const sourceText = (src: Source): string => (isScalar(src.value) ? src.raw : "");

const TAG_NAMES: Record<PlainTag, string> = {
  null: "null",
  bool: "a boolean",
  int: "an integer",
  float: "a floating-point number",
  timestamp: "a timestamp",
  str: "a string",
};

/**
 * The tag of the target's node, which kyaml keeps: a replacement changes only the node's text, and
 * the text must then read as that tag (go-yaml's decoding; an integer text also reads as a float).
 * `undefined` for a node without a tag (one a replacement created), whose text resolves freely.
 */
function targetTag(parent: JsonObject | Json[], key: string | number): PlainTag | undefined {
  const current = (parent as Record<string | number, Json>)[key];
  if (notesOf(parent)?.get(key)?.untagged) return undefined;
  if (current === null) return "null";
  if (typeof current === "boolean") return "bool";
  if (typeof current === "bigint") return "int";
  if (typeof current === "number") return resolvePlainTagged(rawText(parent, key)).tag === "int" ? "int" : "float";
  if (isQuoted(parent, key)) return "str";
  return resolvePlainTagged(rawText(parent, key)).tag === "timestamp" ? "timestamp" : "str";
}

/** The value the text reads as in a node of the tag, or why it cannot be written there. */
function readAs(tag: PlainTag | undefined, text: string, current: string): { value: Json; problem?: string } {
  if (tag === "str") return { value: text };
  const r = resolvePlainTagged(text, tag === undefined || tag === "timestamp");
  if (tag === "null" && r.tag !== "null")
    return {
      value: null,
      problem:
        "the field is null, and a replacement keeps the field's type: it cannot write into a null field (give the field a value of the intended type)",
    };
  if (tag !== undefined && r.tag !== tag && !(tag === "float" && r.tag === "int"))
    return {
      value: null,
      problem: `the field holds ${TAG_NAMES[tag]} (${current}), and a replacement keeps the field's type, but ${JSON.stringify(text)} reads as ${TAG_NAMES[r.tag]}`,
    };
  if (typeof r.value === "number" && !Number.isFinite(r.value))
    return { value: null, problem: `${text} (infinity or NaN) cannot be represented in JSON` };
  return { value: tag === "float" && typeof r.value === "bigint" ? Number(r.value) : r.value };
}

/**
 * Writes the source into the target field as kyaml does. A scalar target keeps its node and takes
 * only the source's text (a map or list source has none): a string target gets the text as a
 * string, any other target must be able to read the text as its own type, else kustomize fails
 * (`cannot decode !!str "foo" as a !!bool`). A new field (options.create) is a node without a tag.
 * Returns what is wrong, when the write is refused.
 */
function setTarget(
  parent: JsonObject | Json[],
  key: string | number,
  src: Source,
  opts: Options | undefined,
): string | undefined {
  const slot = parent as Record<string | number, Json>;
  const current = slot[key];
  const created = current === undefined;
  let text = sourceText(src);
  if (opts?.delimiter) {
    // A new field is made of the source's kind, so a map or list source makes a map or list.
    if (!isScalar(created ? src.value : current)) return "delimiter option can only be used with scalar nodes";
    const parts = (created ? "" : rawText(parent, key)).split(opts.delimiter);
    const i = opts.index ?? 0;
    if (i < 0) parts.unshift(text);
    else if (i >= parts.length) parts.push(text);
    else parts[i] = text;
    text = parts.join(opts.delimiter);
  } else if (!isScalar(src.value) && (created || !isScalar(current))) {
    // A map or list replaces a map, a list or a new field: the target takes the source's node.
    slot[key] = structuredClone(src.value);
    setNote(parent, key, src.note);
    return undefined;
  }
  if (!created && !isScalar(current)) {
    // A map or list target takes the source's scalar node, tag and style included.
    slot[key] = src.value;
    setNote(parent, key, src.note);
    return undefined;
  }
  const tag = created ? undefined : targetTag(parent, key);
  if (tag === "str") {
    slot[key] = text;
    return undefined;
  }
  const { value, problem } = readAs(tag, text, created ? "" : rawText(parent, key));
  if (problem) return problem;
  slot[key] = value;
  const note = plainScalarNote(text, value);
  setNote(parent, key, tag === undefined ? { ...note, untagged: true } : note);
  return undefined;
}

/** The replacement's source, as the user wrote it: `ConfigMap/app field data.key` or `value "x"`. */
function describeSource(rep: Replacement): string {
  if (rep.sourceValue !== undefined) return `value ${JSON.stringify(rep.sourceValue)}`;
  const s = rep.source!;
  const id = [s.group, s.version, s.kind].filter(Boolean).join("/") + (s.name ? `/${s.name}` : "");
  return `${id || jsonText(s)}${s.namespace ? ` (namespace ${s.namespace})` : ""} field ${s.fieldPath ?? "metadata.name"}`;
}

const describeResource = (r: Resource): string =>
  `${kindOf(r)}/${nameOf(r)}${namespaceOf(r) ? ` in namespace ${namespaceOf(r)}` : ""}`;

/** kyaml writes a replacement into the target's node: a node held in several fields changes in all. */
function writeSharedScalar(r: Resource, parent: JsonObject | Json[], key: string | number, shared: SharedNode): void {
  const value = (parent as Record<string | number, Json>)[key]!;
  if (!isScalar(value)) return;
  const note: ScalarNote = { ...notesOf(parent)?.get(key), shared };
  setNote(parent, key, note);
  writeShared(r.obj, new Map([[shared, { value, note }]]));
}

function locateTarget(r: Resource, fieldPath: string, create: boolean, where: string) {
  try {
    return locate(r.obj, splitFieldPath(fieldPath), create);
  } catch (e) {
    if (e instanceof PathError)
      throw new KustomizeError(`${where}: unable to find field "${fieldPath}" in replacement target: ${e.message}`);
    if (!(e instanceof PathIntoText)) throw e;
    throw new KustomizeError(
      `${where}: replacements target field "${fieldPath}" is not supported: it reaches into the text of field ${e.key} of ${describeResource(r)}; kustomize edits JSON or YAML held in a string there, flotilla does not (replace the whole field instead)`,
    );
  }
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
          const places = locateTarget(r, fieldPath, target.options?.create ?? false, where);
          if (!places.length) {
            throw new KustomizeError(
              `${where}: unable to ${target.options?.create ? "find or create" : "find"} field "${fieldPath}" in replacement target ${kindOf(r)}/${nameOf(r)}`,
            );
          }
          for (const { parent, key } of places) {
            const shared = sharedAt(parent, key);
            const problem = setTarget(parent, key, value, target.options);
            if (problem) {
              throw new KustomizeError(
                `${where}: replacement from ${describeSource(rep)} to ${jsonText(target.select ?? {})} cannot set field "${fieldPath}" of ${describeResource(r)}: ${problem}`,
              );
            }
            if (shared) writeSharedScalar(r, parent, key, shared);
          }
        }
      }
    }
  }
}
