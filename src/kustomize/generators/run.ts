// configMapGenerator and secretGenerator: build the objects, then create them, or merge into or
// replace a generated object of the same name from a base (behavior). The hash suffix is added at
// the end of the whole build, over the final content (see build.ts).
import type { ResMap } from "../res-map.js";
import { KustomizeError } from "../errors.js";
import type { GeneratorArgs, GeneratorOptions, KustomizationFile } from "../kustomization-file.js";
import type { Loader } from "../loader.js";
import {
  describeOrigin,
  type JsonObject,
  kindOf,
  meta,
  nameOf,
  namespaceOf,
  type Resource,
  resId,
} from "../resource.js";
import { collectData } from "./data-sources.js";

function mergeOptions(global: GeneratorOptions | undefined, own: GeneratorOptions | undefined): GeneratorOptions {
  return {
    labels: { ...global?.labels, ...own?.labels },
    annotations: { ...global?.annotations, ...own?.annotations },
    // Disabled globally means disabled everywhere (a generator cannot turn it back on).
    disableNameSuffixHash: Boolean(global?.disableNameSuffixHash || own?.disableNameSuffixHash),
    immutable: own?.immutable ?? global?.immutable ?? false,
  };
}

/** kustomize splits base64 of 70 characters or more into 70-character lines, each ending in "\n". */
function wrapBase64(encoded: string): string {
  if (encoded.length < 70) return encoded;
  let out = "";
  for (let i = 0; i < encoded.length; i += 70) out += `${encoded.slice(i, i + 70)}\n`;
  return out;
}

function generate(
  kind: "ConfigMap" | "Secret",
  args: GeneratorArgs,
  opts: GeneratorOptions,
  loader: Loader,
  where: string,
): JsonObject {
  if (!args.name)
    throw new KustomizeError(
      `${where}: a ${kind === "ConfigMap" ? "configMapGenerator" : "secretGenerator"} entry has no name`,
    );
  const entries = collectData(args, loader, where, kind === "Secret");
  const metadata: JsonObject = { name: args.name };
  if (args.namespace) metadata.namespace = args.namespace;
  if (Object.keys(opts.labels ?? {}).length) metadata.labels = { ...opts.labels };
  if (Object.keys(opts.annotations ?? {}).length) metadata.annotations = { ...opts.annotations };
  const obj: JsonObject = { apiVersion: "v1", kind, metadata };
  const data: JsonObject = {};
  const binaryData: JsonObject = {};
  for (const e of entries) {
    if (kind === "Secret") data[e.key] = wrapBase64(Buffer.from(e.binary ?? e.value).toString("base64"));
    else if (e.binary) binaryData[e.key] = wrapBase64(e.binary.toString("base64"));
    else data[e.key] = e.value;
  }
  if (kind === "Secret") obj.type = args.type ?? "Opaque";
  // As kustomize v5 prints them: an empty ConfigMap has no data field, an empty Secret has `data: {}`.
  if (Object.keys(data).length || kind === "Secret") obj.data = data;
  if (Object.keys(binaryData).length) obj.binaryData = binaryData;
  if (opts.immutable) obj.immutable = true;
  return obj;
}

/** A Secret's stringData folded into data, as the API server (and kustomize before a merge) does. */
function dataOf(r: Resource): JsonObject {
  const data = { ...((r.obj.data as JsonObject | undefined) ?? {}) };
  const stringData = r.obj.stringData as JsonObject | undefined;
  if (kindOf(r) === "Secret" && r.obj.apiVersion === "v1" && stringData && typeof stringData === "object")
    for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v)).toString("base64");
  return data;
}

const nonEmpty = (m: JsonObject) => (Object.keys(m).length ? m : undefined);

/**
 * kustomize's appendReplaceOrMerge: the generated object takes the place of the existing one, keeping
 * its name, namespace and build history, with labels and annotations merged (the generated ones win);
 * a merge also keeps the existing data entries the generated object does not set. It needs a hash
 * suffix only when both did.
 */
function replaceOrMerge(resmap: ResMap, old: Resource, generated: Resource, behavior: "merge" | "replace"): void {
  const [om, gm] = [meta(old), meta(generated)];
  const labels = nonEmpty({ ...((om.labels as JsonObject) ?? {}), ...((gm.labels as JsonObject) ?? {}) });
  const annotations = nonEmpty({
    ...((om.annotations as JsonObject) ?? {}),
    ...((gm.annotations as JsonObject) ?? {}),
  });
  const metadata: JsonObject = { ...gm, name: om.name ?? "" };
  if (om.namespace) metadata.namespace = om.namespace;
  else delete metadata.namespace;
  if (labels) metadata.labels = labels;
  else delete metadata.labels;
  if (annotations) metadata.annotations = annotations;
  else delete metadata.annotations;
  generated.obj.metadata = metadata;
  if (behavior === "merge") {
    for (const field of ["data", "binaryData"] as const) {
      const from = field === "data" ? dataOf(old) : ((old.obj[field] as JsonObject | undefined) ?? {});
      const merged = nonEmpty({ ...from, ...((generated.obj[field] as JsonObject | undefined) ?? {}) });
      if (merged) generated.obj[field] = merged;
      else delete generated.obj[field];
    }
    generated.origin = old.origin;
    generated.buildOrigin = old.buildOrigin; // kustomize keeps the merged object's origin
  }
  generated.transformations = old.transformations;
  generated.previous = old.previous;
  generated.prefixes = old.prefixes;
  generated.suffixes = old.suffixes;
  generated.needsHash = Boolean(old.needsHash && generated.needsHash);
  generated.behavior = old.behavior;
  generated.refVarNames = old.refVarNames;
  resmap.list[resmap.list.indexOf(old)] = generated;
}

/** kustomize's GetMatchingResourcesByAnyId(id.Equals): the generator's id now or at any earlier id. */
function findGenerated(resmap: ResMap, kind: string, args: GeneratorArgs): Resource[] {
  const ns = effectiveNamespace(args.namespace ?? "");
  return resmap.list.filter(
    (r) =>
      r.obj.apiVersion === "v1" &&
      [{ kind: kindOf(r), name: nameOf(r), namespace: namespaceOf(r) }, ...r.previous].some(
        (id) => id.kind === kind && id.name === args.name && effectiveNamespace(id.namespace) === ns,
      ),
  );
}

// kustomize reads a namespace left empty as "default" when it compares ids.
const effectiveNamespace = (ns: string) => ns || "default";

/**
 * A resource that holds, or once held (before a prefix or hash renamed it), the id a generator with
 * behavior create would add: kustomize refuses that create rather than adding a second object.
 */
function heldId(resmap: ResMap, kind: string, name: string, namespace: string): Resource | undefined {
  const ns = effectiveNamespace(namespace);
  return resmap.list.find((r) =>
    [{ kind: kindOf(r), name: nameOf(r), namespace: namespaceOf(r) }, ...r.previous].some(
      (id) => id.kind === kind && id.name === name && effectiveNamespace(id.namespace) === ns,
    ),
  );
}

export function runGenerators(k: KustomizationFile, resmap: ResMap, loader: Loader, where: string): void {
  const run = (kind: "ConfigMap" | "Secret", list: GeneratorArgs[] | undefined) => {
    for (const args of list ?? []) {
      const opts = mergeOptions(k.generatorOptions, args.options);
      const obj = generate(kind, args, opts, loader, where);
      // Anything but merge or replace is create, as kustomize reads it.
      const behavior = args.behavior === "merge" || args.behavior === "replace" ? args.behavior : "create";
      if (behavior === "create") {
        const held = heldId(resmap, kind, args.name!, args.namespace ?? "");
        if (held) {
          throw new KustomizeError(
            `${where}: ${kind} ${args.name} already exists, from ${describeOrigin(held.origin)}; a generator cannot create it again: behavior must be merge or replace`,
          );
        }
        resmap.add(
          { obj, origin: { file: where, index: 0 }, previous: [], needsHash: !opts.disableNameSuffixHash, behavior },
          where,
        );
        continue;
      }
      const found = findGenerated(resmap, kind, args);
      if (!found.length) {
        throw new KustomizeError(
          `${where}: ${kind} ${args.name} has behavior ${behavior}, but no ${kind} of that name exists to ${behavior}`,
        );
      }
      if (found.length > 1)
        throw new KustomizeError(
          `${where}: ${kind} ${args.name} has behavior ${behavior}, but found multiple objects that could accept it: ${found.map(resId).join(", ")}`,
        );
      const generated: Resource = {
        obj,
        origin: { file: where, index: 0 },
        previous: [],
        needsHash: !opts.disableNameSuffixHash,
      };
      replaceOrMerge(resmap, found[0]!, generated, behavior);
    }
  };
  run("ConfigMap", k.configMapGenerator);
  run("Secret", k.secretGenerator);
}
