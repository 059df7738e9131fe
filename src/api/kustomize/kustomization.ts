// Kustomization (kustomize.toolkit.fluxcd.io): v1 is stored; v1beta2 and v1beta1 are served so that
// manifests from older docs apply as written (the seeds use v1beta1 with patchesStrategicMerge and
// validation). The spec schema preserves unknown fields for that reason; the reconciler reads the
// old field names with v1 semantics.
import type { KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import type { Snapshot } from "../meta/history.js";
import type { Inventory } from "../meta/inventory.js";
import { AGE_COLUMN, arr, condition, crdFor, type KindDefinition, obj, open, READY_COLUMNS, str } from "../crd.js";

export const KUSTOMIZE_GROUP = "kustomize.toolkit.fluxcd.io";

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

const columns = [AGE_COLUMN, ...READY_COLUMNS];
const version = (name: string, storage: boolean) => ({
  name,
  storage,
  deprecated: !storage,
  spec: open(),
  status,
  columns,
});

export const kustomizationDefinition: KindDefinition = {
  group: KUSTOMIZE_GROUP,
  kind: "Kustomization",
  plural: "kustomizations",
  singular: "kustomization",
  shortNames: ["ks"],
  categories: ["all", "fluxcd"],
  versions: [version("v1", true), version("v1beta2", false), version("v1beta1", false)],
};

export const kustomizationCrd = () => crdFor(kustomizationDefinition);
