// The shape every Kubernetes object shares (apiVersion, kind, metadata), kept unstructured: plain
// JSON with every field preserved, so flotilla round-trips objects it does not know.

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
  ownerReferences?: OwnerReference[];
  managedFields?: ManagedFieldsEntry[];
  [key: string]: unknown;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
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

/** One spec.dependsOn entry of a Kustomization or HelmRelease (kind and apiVersion to name another kind). */
export interface DependencyReference {
  apiVersion?: string;
  kind?: string;
  name: string;
  namespace?: string;
  /** With kind: false waits only for the object to exist. */
  ready?: boolean;
  readyExpr?: string;
}
