// vars: `$(NAME)` in the fields the configuration's varReference names is replaced, at the end of
// the build, by a field of the object the var points at — kustomize's legacy mechanism (replacements
// supersede it, but kustomizations in the wild still use it). A kustomization's vars are bound to
// their object after its own transformers ran; the values are read after every rename.
import { KustomizeError } from "../errors.js";
import { groupVersion, type JsonObject, kindOf, nameOf, namespaceOf, type Resource } from "../resource.js";
import type { Json } from "../yaml/emit.js";
import { setNote } from "../yaml/scalar-style.js";
import { type FieldSpec, applySpecs } from "./field-spec.js";
import { effectiveNamespace } from "./scope.js";

export interface Var {
  name: string;
  objref: { group: string; version: string; kind: string; name: string; namespace: string };
  fieldPath: string;
}

/** Go's encoding/json matches field names in any case: `fieldpath` is `fieldPath`. */
function field(obj: JsonObject, name: string): Json | undefined {
  if (name in obj) return obj[name];
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : obj[key];
}

const str = (v: Json | undefined): string => (typeof v === "string" ? v : "");

function parseVar(entry: Json, i: number, where: string): Var {
  if (!entry || typeof entry !== "object" || Array.isArray(entry))
    throw new KustomizeError(`${where}: vars[${i}] must be a map with name, objref and fieldref`);
  const name = str(field(entry, "name"));
  const objref = field(entry, "objref");
  if (!name) throw new KustomizeError(`${where}: vars[${i}] needs a name`);
  if (!objref || typeof objref !== "object" || Array.isArray(objref))
    throw new KustomizeError(`${where}: var ${name} needs an objref (kind, name and apiVersion of its object)`);
  // kustomize's Target.GVK: apiVersion, when given, sets group and version.
  let group = str(field(objref, "group"));
  let version = str(field(objref, "version"));
  const apiVersion = str(field(objref, "apiVersion"));
  if (apiVersion) {
    const parts = apiVersion.split("/");
    if (parts.length === 2) [group, version] = parts as [string, string];
    if (parts.length === 1) version = apiVersion;
  }
  const fieldref = field(entry, "fieldref");
  const fieldPath =
    fieldref && typeof fieldref === "object" && !Array.isArray(fieldref) ? str(field(fieldref, "fieldPath")) : "";
  return {
    name,
    objref: {
      group,
      version,
      kind: str(field(objref, "kind")),
      name: str(field(objref, "name")),
      namespace: str(field(objref, "namespace")),
    },
    fieldPath: fieldPath || "metadata.name",
  };
}

/** kustomize's MergeVars: each var is bound to the one object its objref names (by any of its ids). */
/** What vars are kept in (a ResMap; not imported, as the ResMap holds vars). */
interface VarHolder {
  list: Resource[];
  vars?: Var[];
}

export function mergeVars(resmap: VarHolder, entries: Json[] | undefined, where: string): void {
  for (const [i, entry] of (entries ?? []).entries()) {
    const v = parseVar(entry, i, where);
    const ref = v.objref;
    const matched = resmap.list.filter((r) => {
      const gv = groupVersion(r);
      if (gv.group !== ref.group || gv.version !== ref.version) return false;
      return [{ kind: kindOf(r), name: nameOf(r), namespace: namespaceOf(r) }, ...r.previous].some(
        (id) =>
          id.kind === ref.kind &&
          id.name === ref.name &&
          (!ref.namespace || effectiveNamespace(r, id.namespace) === effectiveNamespace(r, ref.namespace)),
      );
    });
    if (matched.length > 1)
      throw new KustomizeError(
        `${where}: found ${matched.length} resId matches for var ${v.name} (unable to disambiguate): give its objref a namespace`,
      );
    if (matched.length === 1) (matched[0]!.refVarNames ??= []).push(v.name);
    addVar(resmap, v, where);
  }
}

export function addVar(resmap: Pick<VarHolder, "vars">, v: Var, where: string): void {
  const vars = (resmap.vars ??= []);
  if (vars.some((x) => x.name === v.name)) throw new KustomizeError(`${where}: var '${v.name}' already encountered`);
  vars.push(v);
}

/** kyaml's GetFieldValue path: dots, `[a.b]` for a key with dots, `ports[0]` for an index. */
function lookup(obj: Json, path: string): Json | undefined {
  const segs: string[] = [];
  for (const part of path.match(/\[[^\]]*\]|[^.[\]]+(?:\[\d+\])?/g) ?? []) {
    const indexed = /^(.+)\[(\d+)\]$/.exec(part);
    if (indexed) segs.push(indexed[1]!, indexed[2]!);
    else segs.push(part.startsWith("[") && !part.includes("=") ? part.slice(1, -1) : part);
  }
  let node: Json | undefined = obj;
  for (const seg of segs) {
    if (Array.isArray(node)) {
      const sel = /^\[(.+?)=(.*)\]$/.exec(seg);
      node = sel
        ? node.find((el) => el && typeof el === "object" && !Array.isArray(el) && String(el[sel[1]!]) === sel[2])
        : node[Number(seg)];
    } else if (node && typeof node === "object") node = node[seg];
    else return undefined;
    if (node === undefined || node === null) return undefined;
  }
  return node;
}

/** kustomize's DoReplacements: `$(NAME)` replaced; a field that is exactly one var takes its type. */
function expand(input: string, values: Map<string, Json>): Json {
  let out = "";
  for (let i = 0; i < input.length; i++) {
    if (input[i] !== "$" || i + 1 >= input.length) {
      out += input[i];
      continue;
    }
    const next = input[i + 1];
    if (next === "$") {
      out += "$";
      i++;
    } else if (next === "(" && input.indexOf(")", i + 2) >= 0) {
      const close = input.indexOf(")", i + 2);
      const name = input.slice(i + 2, close);
      const value = values.get(name);
      if (input === `$(${name})` && value !== undefined) return value;
      out += value === undefined ? `$(${name})` : String(value);
      i = close;
    } else out += "$";
  }
  return out;
}

/** kustomize's ResolveVars, at the end of the build. */
export function resolveVars(resources: Resource[], vars: Var[] | undefined, specs: FieldSpec[]): void {
  if (!vars?.length) return;
  const values = new Map<string, Json>();
  for (const v of [...vars].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const holder = resources.find((r) => r.refVarNames?.includes(v.name));
    if (!holder)
      throw new KustomizeError(
        `var '${v.name}' cannot be mapped to a field in the set of known resources: no ${v.objref.kind} ${v.objref.name} (apiVersion ${[v.objref.group, v.objref.version].filter(Boolean).join("/") || "unset"})`,
      );
    const value = lookup(holder.obj, v.fieldPath);
    if (value === undefined)
      throw new KustomizeError(
        `field specified in var '${v.name}' not found in corresponding resource: ${v.fieldPath}`,
      );
    // Only scalars replace; a map or list leaves `$(NAME)` as it is (kustomize logs it).
    if (value === null || typeof value !== "object") values.set(v.name, value);
  }
  const set = (parent: JsonObject | Json[], key: string | number) => {
    const text = (parent as Record<string | number, Json>)[key];
    if (typeof text !== "string") return;
    (parent as Record<string | number, Json>)[key] = expand(text, values);
    setNote(parent as JsonObject, key as string, undefined);
  };
  applySpecs(resources, specs, (_r, parent, key) => {
    const node = parent[key];
    if (node === null || node === undefined) return;
    if (typeof node === "string") set(parent, key);
    else if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) {
        if (typeof item !== "string") throw new KustomizeError(`${key}: invalid value type expect a string`);
        set(node, i);
      }
    } else if (typeof node === "object") for (const k of Object.keys(node)) set(node, k);
  });
}
