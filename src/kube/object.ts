// Helpers on unstructured Kubernetes objects (their shape: api/meta/object.ts).
import type { GroupVersionKind, KubeObject } from "../api/meta/object.js";

export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf("/");
  return slash < 0
    ? { group: "", version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export function gvkOf(obj: Pick<KubeObject, "apiVersion" | "kind">): GroupVersionKind {
  return { ...parseApiVersion(obj.apiVersion), kind: obj.kind };
}

/** Flux's object reference format: `Kind/namespace/name`, or `Kind/name` when cluster-scoped. */
export function objectId(obj: { kind: string; metadata: { name: string; namespace?: string } }): string {
  const ns = obj.metadata.namespace;
  return ns ? `${obj.kind}/${ns}/${obj.metadata.name}` : `${obj.kind}/${obj.metadata.name}`;
}

export function clone<T>(value: T): T {
  return structuredClone(value);
}
