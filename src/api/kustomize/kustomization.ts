// Kustomization (kustomize.toolkit.fluxcd.io): v1 is stored; v1beta2 and v1beta1 are served so that
// manifests from older docs apply as written (the seeds use v1beta1 with patchesStrategicMerge and
// validation); the reconciler reads the old field names with v1 semantics. The schemas, Flux's field
// for field, are in kustomization-schema.ts.
import type { DependencyReference, KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import type { Snapshot } from "../meta/history.js";
import type { Inventory } from "../meta/inventory.js";
import { crdFor } from "../crd.js";
import { kustomizationSchemas } from "./kustomization-schema.js";
import { SERVED_KINDS } from "../kinds.js";

export interface KustomizationSpec {
  sourceRef: {
    kind: "GitRepository" | "OCIRepository" | "Bucket";
    name: string;
    namespace?: string;
    apiVersion?: string;
  };
  path?: string;
  interval: string;
  retryInterval?: string;
  timeout?: string;
  prune: boolean;
  deletionPolicy?: "MirrorPrune" | "Delete" | "WaitForTermination" | "Orphan";
  wait?: boolean;
  force?: boolean;
  suspend?: boolean;
  targetNamespace?: string;
  namePrefix?: string;
  nameSuffix?: string;
  serviceAccountName?: string;
  dependsOn?: DependencyReference[];
  healthChecks?: { apiVersion?: string; kind: string; name: string; namespace?: string }[];
  healthCheckExprs?: HealthCheckExpr[];
  kubeConfig?: { secretRef?: { name: string; key?: string }; configMapRef?: { name: string } };
  patches?: { patch: string; target?: Record<string, string> }[];
  ignore?: { paths: string[]; target?: Record<string, string> }[];
  ignoreMissingComponents?: boolean;
  buildMetadata?: string[];
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
  components?: string[];
  commonMetadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  postBuild?: {
    substitute?: Record<string, string>;
    substituteFrom?: { kind: "ConfigMap" | "Secret"; name: string; optional?: boolean }[];
    substituteStrategy?: "WithVariables" | "Always";
  };
  decryption?: { provider: string; secretRef?: { name: string }; serviceAccountName?: string };
  /** v1beta1/v1beta2 fields, honoured with v1 semantics. */
  patchesStrategicMerge?: unknown[];
  patchesJson6902?: { patch: unknown[]; target: Record<string, string> }[];
  validation?: string;
}

/** CEL expressions judging the health of objects of one kind (or, without kind, one API group). */
export interface HealthCheckExpr {
  apiVersion: string;
  kind?: string;
  current: string;
  inProgress?: string;
  failed?: string;
}

export interface KustomizationStatus {
  observedGeneration?: number;
  conditions?: Condition[];
  lastAppliedRevision?: string;
  lastAttemptedRevision?: string;
  lastHandledReconcileAt?: string;
  inventory?: Inventory;
  history?: Snapshot[];
}

export type Kustomization = KubeObject & { spec: KustomizationSpec; status?: KustomizationStatus };

export const kustomizationCrd = () => crdFor(SERVED_KINDS.Kustomization, kustomizationSchemas);
