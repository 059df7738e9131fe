// `patches`, and the deprecated `patchesStrategicMerge` and `patchesJson6902`: load each patch (file or
// inline), tell strategic-merge from JSON 6902, select targets, apply. A strategic merge patch
// without target must match exactly one object; a target that matches nothing is not an error.
import type { ResMap } from "../res-map.js";
import { KustomizeError } from "../errors.js";
import type { Patch } from "../kustomization-file.js";
import type { Loader } from "../loader.js";
import { groupVersion, type JsonObject, kindOf, meta, nameOf, namespaceOf, resId, type Resource } from "../resource.js";
import { storePreviousId } from "../transformers/rename.js";
import { isClusterScoped } from "../transformers/scope.js";
import type { Json } from "../yaml/emit.js";
import { parseFileCached } from "../parse-cache.js";
import { parseYamlDocuments } from "../yaml/parse.js";
import { notesOf } from "../yaml/scalar-style.js";
import { applyJsonPatch, type Operation } from "./json6902.js";
import { strategicMerge } from "./strategic-merge.js";
import { selectTargets } from "./target.js";

type Parsed = { kind: "sm"; docs: JsonObject[] } | { kind: "json"; ops: Operation[] };

const isMap = (v: Json | undefined): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

function parsePatch(read: () => string, source: string, path?: string): Parsed {
  // kustomize trims an inline patch, not a patch file (a block scalar ending it keeps its line break).
  const parsed = path
    ? parseFileCached(path, read, source, { printedByKyaml: true })
    : parseYamlDocuments(read().trim(), source, { printedByKyaml: true });
  const docs = parsed.map((d) => d.value);
  if (docs.length === 1 && Array.isArray(docs[0])) {
    // kustomize turns YAML operations into JSON with go-yaml v2 (YAML 1.1): plain yes/on/y are booleans
    // and a plain date stays the text written.
    if (!read().trim().startsWith("[")) yaml11Scalars(docs[0]);
    return { kind: "json", ops: docs[0] as unknown as Operation[] };
  }
  if (docs.every(isMap)) return { kind: "sm", docs: docs as JsonObject[] };
  throw new KustomizeError(
    `${source}: unable to parse SM or JSON patch from [patch: ${JSON.stringify(read().trim())}]`,
  );
}

const YAML11_BOOLEANS = new Map<string, boolean>([
  ...["y", "Y", "yes", "Yes", "YES", "on", "On", "ON"].map((t) => [t, true] as const),
  ...["n", "N", "no", "No", "NO", "off", "Off", "OFF"].map((t) => [t, false] as const),
]);

/** Plain scalars as go-yaml v2's YAML-to-JSON reads them, where our go-yaml v3 reading differs. */
function yaml11Scalars(v: Json): void {
  if (v === null || typeof v !== "object") return;
  const slots = v as Record<string | number, Json>;
  for (const k of Array.isArray(v) ? v.keys() : Object.keys(v)) {
    const x = slots[k]!;
    const note = typeof x === "string" ? notesOf(v)?.get(k) : undefined;
    const b = note?.quoted === false ? YAML11_BOOLEANS.get(x as string) : undefined;
    if (b !== undefined) slots[k] = b;
    else if (note?.quoted === false && note.raw !== undefined) slots[k] = note.raw;
    else yaml11Scalars(x);
  }
}

/**
 * kustomize reads a JSON-patched object back through Go's encoding/json, so every number becomes a
 * float64, printed later with its shortest digits (12345678901234567890 → 12345678901234567000) and
 * read again as an integer when those fit int64 or uint64.
 */
function float64Numbers(v: Json): Json {
  if (typeof v === "bigint") {
    const n = Number(v);
    if (Math.abs(n) >= 1e21) return n;
    const shortest = BigInt(String(n));
    return shortest >= -(2n ** 63n) && shortest < 2n ** 64n ? shortest : n;
  }
  if (v === null || typeof v !== "object") return v;
  const slots = v as Record<string | number, Json>;
  for (const k of Array.isArray(v) ? v.keys() : Object.keys(v)) slots[k] = float64Numbers(slots[k]!);
  return v;
}

function loadPatch(
  p: Patch,
  loader: Loader | undefined,
  where: string,
  field: string,
): { text: string; source: string; path?: string } {
  if (p.path && p.patch) throw new KustomizeError(`${where}: a ${field} entry has both patch and path; set one`);
  if (p.patch !== undefined) return { text: p.patch, source: `${where} (inline ${field})` };
  if (!p.path) throw new KustomizeError(`${where}: a ${field} entry must specify one of patch and path`);
  // A build held in memory (in-memory.ts) has no files to read.
  if (!loader) throw new KustomizeError(`${where}: a ${field} entry must be inline (patch), not a path`);
  const path = loader.resolve(p.path, field, where);
  // A decrypted patch stays out of the parse cache, which outlives the build.
  if (loader.inMemory(path)) return { text: loader.read(path), source: p.path };
  // Read lazily: the parse cache reads the file only when it changed.
  return {
    get text() {
      return loader.read(path);
    },
    source: p.path,
    path,
  };
}

function applySm(r: Resource, patch: JsonObject, options: Patch["options"], remove: (r: Resource) => void): void {
  const before = { kind: kindOf(r), name: nameOf(r), namespace: namespaceOf(r), apiVersion: r.obj.apiVersion };
  if (options?.allowNameChange || options?.allowKindChange) storePreviousId(r);
  const merged = strategicMerge(r.obj, patch);
  if (!merged) return remove(r);
  r.obj = merged;
  const m = meta(r);
  // The patch may not rename, move or re-kind the object unless allowed.
  if (before.namespace) m.namespace = before.namespace;
  else delete m.namespace;
  if (!options?.allowKindChange) {
    r.obj.kind = before.kind;
    r.obj.apiVersion = before.apiVersion!;
  }
  if (!options?.allowNameChange) m.name = before.name;
}

function applyJson(r: Resource, ops: Operation[], source: string): void {
  const before = nameOf(r);
  storePreviousId(r);
  try {
    r.obj = float64Numbers(applyJsonPatch(structuredClone(r.obj), ops)) as JsonObject;
  } catch (err) {
    throw new KustomizeError(`${source}: JSON patch on ${kindOf(r)}/${before}: ${(err as Error).message}`);
  }
}

/**
 * An object's id as a strategic merge patch without target names it (namespace unset = default), matched
 * as kustomize's GetMatchingResourcesByAnyId does: against the current id *and every earlier one*, name
 * and namespace together — so an overlay's patch without a namespace still finds an object whose base set
 * `namespace:` (multicluster-gitops' infrastructure overlays do exactly that).
 */
function matchesById(r: Resource, doc: JsonObject): boolean {
  const m = (doc.metadata ?? {}) as JsonObject;
  const gv = groupVersion({ obj: doc } as Resource);
  const rgv = groupVersion(r);
  const eff = (ns: string, kind: string, group: string) => (isClusterScoped(kind, group) ? "" : ns || "default");
  if (rgv.group !== gv.group || rgv.version !== gv.version) return false;
  const want = { name: String(m.name ?? ""), namespace: eff(String(m.namespace ?? ""), String(doc.kind), gv.group) };
  // An earlier id has the kind it had then (a patch with allowKindChange re-kinds the object).
  return [{ kind: kindOf(r), name: nameOf(r), namespace: namespaceOf(r) }, ...r.previous].some(
    (id) => id.kind === doc.kind && id.name === want.name && eff(id.namespace, id.kind, rgv.group) === want.namespace,
  );
}

/**
 * A patch written for an older apiVersion of a Flux kind (flux2-multi-tenancy's staging overlay patches a
 * `kustomize.toolkit.fluxcd.io/v1beta1` Kustomization that `flux create … --export` now writes as v1):
 * kustomize finds no match and fails the build. It is one object in the API server whatever version
 * names it, so flotilla patches it — the patch takes the resource's apiVersion (docs/decisions/0020).
 */
function fluxKindAtAnotherVersion(list: Resource[], doc: JsonObject): Resource[] {
  const { group, version } = groupVersion({ obj: doc } as Resource);
  if (!group.endsWith(".toolkit.fluxcd.io")) return [];
  const found = list.filter((r) => {
    const rv = groupVersion(r).version;
    return rv !== version && matchesById(r, { ...doc, apiVersion: `${group}/${rv}` });
  });
  if (found.length === 1) doc.apiVersion = String(found[0]!.obj.apiVersion);
  return found;
}

function idString(doc: JsonObject): string {
  const m = (doc.metadata ?? {}) as JsonObject;
  const { group, version } = groupVersion({ obj: doc } as Resource);
  return `${doc.kind}.${version}.${group || "[noGrp]"}/${m.name}.${m.namespace || "[noNs]"}`;
}

function applyPatch(resmap: ResMap, p: Patch, loader: Loader | undefined, where: string, field: string): void {
  const patch = loadPatch(p, loader, where, field);
  const { source } = patch;
  const parsed = parsePatch(() => patch.text, source, patch.path);
  const remove = (r: Resource) => resmap.list.splice(resmap.list.indexOf(r), 1);
  // kustomize's PatchStrategicMergeTransformer refuses an empty file (its `patches` field accepts one).
  if (parsed.kind === "sm" && !parsed.docs.length && field === "patchesStrategicMerge")
    throw new KustomizeError(
      `${where}: trouble configuring builtin PatchStrategicMergeTransformer: patch appears to be empty; files=[${source}]`,
    );
  if (parsed.kind === "json") {
    if (!p.target) throw new KustomizeError(`${where}: must specify a target for JSON patch ${source}`);
    for (const r of selectTargets(resmap.list, p.target)) applyJson(r, parsed.ops, source);
    return;
  }
  if (p.target) {
    if (parsed.docs.length > 1) {
      throw new KustomizeError(
        `${where}: Multiple Strategic-Merge Patches in one \`patches\` entry is not allowed to set \`patches.target\` field (${source})`,
      );
    }
    for (const r of selectTargets(resmap.list, p.target)) applySm(r, parsed.docs[0]!, p.options, remove);
    return;
  }
  for (const doc of parsed.docs) {
    let matches = resmap.list.filter((r) => matchesById(r, doc));
    if (matches.length === 0) matches = fluxKindAtAnotherVersion(resmap.list, doc);
    if (matches.length !== 1) {
      const id = idString(doc);
      throw new KustomizeError(
        matches.length
          ? `${where}: strategic merge patch "${id}" from ${source} matches ${matches.length} resources (${matches.map(resId).join(", ")}): multiple matches for Id ${id}; failed to find unique target for patch ${id}`
          : `${where}: no resource matches strategic merge patch "${id}" from ${source}: no matches for Id ${id}; failed to find unique target for patch ${id}`,
      );
    }
    applySm(matches[0]!, doc, p.options, remove);
  }
}

export function transformPatches(
  resmap: ResMap,
  patches: Patch[] | undefined,
  loader: Loader | undefined,
  where: string,
  field = "patches",
): void {
  for (const p of patches ?? []) applyPatch(resmap, p, loader, where, field);
}

/** `patchesStrategicMerge` entries are inline YAML or a file path. */
export function transformPatchesStrategicMerge(
  resmap: ResMap,
  entries: string[] | undefined,
  loader: Loader,
  where: string,
): void {
  for (const entry of entries ?? []) {
    const inline = entry.includes("\n") || /^\s*(apiVersion|kind|metadata)\s*:/.test(entry);
    applyPatch(resmap, inline ? { patch: entry } : { path: entry }, loader, where, "patchesStrategicMerge");
  }
}
