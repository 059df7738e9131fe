// Unstructured Kubernetes objects: plain JSON, every field kept.

export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  resourceVersion?: string;
  uid?: string;
  generation?: number;
  deletionTimestamp?: string;
  creationTimestamp?: string | null;
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
  [key: string]: unknown;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: "Apply" | "Update";
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

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
