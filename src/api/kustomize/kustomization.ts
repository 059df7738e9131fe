// Kustomization (kustomize.toolkit.fluxcd.io): v1 is stored; v1beta2 and v1beta1 are served so that
// manifests from older docs apply as written (the seeds use v1beta1 with patchesStrategicMerge and
// validation). The spec schema preserves unknown fields for that reason; the reconciler reads the
// old field names with v1 semantics.
import type { KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import type { Snapshot } from "../meta/history.js";
import type { Inventory } from "../meta/inventory.js";
import { arr, condition, crdFor, obj, open, str } from "../crd.js";
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
  dependsOn?: { name: string; namespace?: string }[];
  healthChecks?: { apiVersion?: string; kind: string; name: string; namespace?: string }[];
  kubeConfig?: { secretRef: { name: string; key?: string } };
  patches?: { patch: string; target?: Record<string, string> }[];
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
  components?: string[];
  commonMetadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  postBuild?: {
    substitute?: Record<string, string>;
    substituteFrom?: { kind: "ConfigMap" | "Secret"; name: string; optional?: boolean }[];
  };
  decryption?: { provider: string };
  /** v1beta1/v1beta2 fields, honoured with v1 semantics. */
  patchesStrategicMerge?: unknown[];
  patchesJson6902?: { patch: unknown[]; target: Record<string, string> }[];
  validation?: string;
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

const status = obj({
  observedGeneration: { type: "integer", format: "int64" },
  conditions: arr(condition()),
  lastAppliedRevision: str(),
  lastAttemptedRevision: str(),
  lastHandledReconcileAt: str(),
  inventory: obj({ entries: arr(obj({ id: str(), v: str() }, ["id", "v"])) }),
  history: arr(open()),
});

// Every version serves the same open spec: the reconciler reads the old field names itself.
const schema = { spec: open(), status };

export const kustomizationCrd = () =>
  crdFor(SERVED_KINDS.Kustomization, { v1: schema, v1beta2: schema, v1beta1: schema });
