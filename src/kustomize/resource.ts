// A resource in a kustomize build: the object plus where it came from, and the names it had before
// prefixes, suffixes and hashes changed it (references to the old names are rewritten at the end).
import type { Json } from "./yaml/emit.js";

export type JsonObject = { [key: string]: Json };

export interface Origin {
  /** File the object was read from (or the kustomization that generated it). */
  file: string;
  /** 0-based document index in that file. */
  index: number;
}

/** Where kustomize says an object came from (buildMetadata: originAnnotations, build-metadata.ts). */
export interface BuildOrigin {
  path?: string;
  configuredIn?: string;
  configuredBy?: { apiVersion: string; kind: string; name?: string; namespace?: string };
}

export interface Resource {
  obj: JsonObject;
  origin: Origin;
  /** Ids this object had before renames, oldest first (kind/namespace/name). */
  previous: { kind: string; name: string; namespace: string }[];
  /** namePrefix and nameSuffix values applied to it, innermost kustomization first. */
  prefixes?: string[];
  suffixes?: string[];
  /** Origin and transformers met, tracked when the top kustomization has buildMetadata. */
  buildOrigin?: BuildOrigin;
  transformations?: BuildOrigin[];
  /** Names of the vars bound to this object (kustomize's refVarNames). */
  refVarNames?: string[];
  /** Generated ConfigMap/Secret that still needs its content-hash name suffix. */
  needsHash?: boolean;
  /** Generator behavior, for merging with an existing generated object. */
  behavior?: "create" | "merge" | "replace";
}

export const meta = (r: Resource): JsonObject => (r.obj.metadata ??= {}) as JsonObject;
export const nameOf = (r: Resource): string => String(meta(r).name ?? "");
export const namespaceOf = (r: Resource): string => String(meta(r).namespace ?? "");
export const kindOf = (r: Resource): string => String(r.obj.kind ?? "");
export const apiVersionOf = (r: Resource): string => String(r.obj.apiVersion ?? "");

export function groupVersion(r: Resource): { group: string; version: string } {
  const av = apiVersionOf(r);
  const slash = av.indexOf("/");
  return slash < 0 ? { group: "", version: av } : { group: av.slice(0, slash), version: av.slice(slash + 1) };
}

/** kustomize's resource id: `Kind.version.group/name.namespace` (group and namespace omitted when empty). */
export function resId(r: Resource): string {
  const { group, version } = groupVersion(r);
  const gvk = [kindOf(r), version, group].filter(Boolean).join(".");
  const ns = namespaceOf(r);
  return `${gvk}/${nameOf(r)}${ns ? `.${ns}` : ""}`;
}

/** Identity for duplicate detection: group, version, kind, namespace and name, as kustomize's ResId. */
export function identity(r: Resource): string {
  const { group, version } = groupVersion(r);
  return `${group}|${version}|${kindOf(r)}|${namespaceOf(r)}|${nameOf(r)}`;
}

export function describeOrigin(o: Origin): string {
  return `${o.file} (document ${o.index + 1})`;
}

/** JSON text of a value, bigints included (for comparisons and messages). */
export const jsonText = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x));
