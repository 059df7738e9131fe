// HelmRelease (helm.toolkit.fluxcd.io): v2 is stored; v2beta2 and v2beta1 are served so that manifests
// from older docs (the Kamaji guide's is v2beta1) apply as written. The reconciler reads the old field
// names (valuesFile, patchesStrategicMerge/patchesJson6902, install.skipCRDs) with v2 meaning.
// Field for field helm-controller v1.6's api/v2 (../shared/reference/helm-cli-fleet-facts.md §1.1).
import type { DependencyReference, KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import type { Inventory } from "../meta/inventory.js";
import type { HealthCheckExpr } from "../kustomize/kustomization.js";
import { crdFor } from "../crd.js";
import { SERVED_KINDS } from "../kinds.js";
import { helmReleaseSchemas } from "./helmrelease-schema.js";

export interface CrossNamespaceRef {
  apiVersion?: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface HelmChartTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    chart: string;
    version?: string;
    sourceRef: CrossNamespaceRef & { kind: "HelmRepository" | "GitRepository" | "Bucket" };
    interval?: string;
    reconcileStrategy?: "ChartVersion" | "Revision";
    valuesFiles?: string[];
    ignoreMissingValuesFiles?: boolean;
    verify?: { provider: string; secretRef?: { name: string } };
    /** v2beta1: one values file; read as valuesFiles: [valuesFile]. */
    valuesFile?: string;
  };
}

export interface Remediation {
  retries?: number;
  ignoreTestFailures?: boolean;
  remediateLastFailure?: boolean;
  /** upgrade only */
  strategy?: "rollback" | "uninstall";
}

export interface ActionStrategy {
  name: "RemediateOnFailure" | "RetryOnFailure";
  retryInterval?: string;
}

export type CrdsPolicy = "Skip" | "Create" | "CreateReplace";

/** The fields install and upgrade share (helm-controller's Install and Upgrade types repeat them). */
interface ReleaseActionSpec {
  timeout?: string;
  crds?: CrdsPolicy;
  disableHooks?: boolean;
  disableOpenAPIValidation?: boolean;
  disableSchemaValidation?: boolean;
  disableTakeOwnership?: boolean;
  disableWait?: boolean;
  disableWaitForJobs?: boolean;
  strategy?: ActionStrategy;
  remediation?: Remediation;
}

export interface InstallSpec extends ReleaseActionSpec {
  replace?: boolean;
  createNamespace?: boolean;
  serverSideApply?: boolean;
  /** v2beta1: read as crds: Skip. */
  skipCRDs?: boolean;
}

export interface UpgradeSpec extends ReleaseActionSpec {
  chartNameChangeStrategy?: "Reinstall" | "InPlaceUpdate";
  cleanupOnFail?: boolean;
  force?: boolean;
  preserveValues?: boolean;
  serverSideApply?: "enabled" | "disabled" | "auto";
}

export interface ValuesReference {
  kind: "ConfigMap" | "Secret";
  name: string;
  valuesKey?: string;
  targetPath?: string;
  optional?: boolean;
  literal?: boolean;
}

export interface DriftIgnoreRule {
  paths: string[];
  target?: {
    group?: string;
    version?: string;
    kind?: string;
    name?: string;
    namespace?: string;
    annotationSelector?: string;
    labelSelector?: string;
  };
}

export interface PostRenderer {
  kustomize?: {
    patches?: { patch: string; target?: Record<string, string> }[];
    images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
    /** v2beta1/v2beta2, read as patches. */
    patchesStrategicMerge?: unknown[];
    patchesJson6902?: { patch: unknown[]; target: Record<string, string> }[];
  };
}

export interface HelmReleaseSpec {
  chart?: HelmChartTemplate;
  chartRef?: CrossNamespaceRef & { kind: "OCIRepository" | "HelmChart" | "ExternalArtifact" };
  interval: string;
  kubeConfig?: { secretRef?: { name: string; key?: string }; configMapRef?: { name: string } };
  suspend?: boolean;
  releaseName?: string;
  targetNamespace?: string;
  storageNamespace?: string;
  dependsOn?: DependencyReference[];
  timeout?: string;
  maxHistory?: number;
  serviceAccountName?: string;
  persistentClient?: boolean;
  driftDetection?: { mode?: "enabled" | "warn" | "disabled"; ignore?: DriftIgnoreRule[] };
  install?: InstallSpec;
  upgrade?: UpgradeSpec;
  test?: {
    enable?: boolean;
    timeout?: string;
    ignoreFailures?: boolean;
    filters?: { name: string; exclude?: boolean }[];
  };
  rollback?: {
    timeout?: string;
    cleanupOnFail?: boolean;
    disableHooks?: boolean;
    disableWait?: boolean;
    disableWaitForJobs?: boolean;
    force?: boolean;
    recreate?: boolean;
    /** As upgrade's (an enum in Flux's CRD, not install's boolean). */
    serverSideApply?: "enabled" | "disabled" | "auto";
  };
  uninstall?: {
    timeout?: string;
    deletionPropagation?: "background" | "foreground" | "orphan";
    disableHooks?: boolean;
    disableWait?: boolean;
    keepHistory?: boolean;
  };
  valuesFrom?: ValuesReference[];
  values?: Record<string, unknown>;
  postRenderers?: PostRenderer[];
  postRenderStrategy?: "nohooks" | "combined" | "separate";
  waitStrategy?: { name: "poller" | "legacy" };
  healthCheckExprs?: HealthCheckExpr[];
  commonMetadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
}

/** One entry of status.history (helm-controller's v2 Snapshot of a Helm release). */
export interface ReleaseSnapshot {
  apiVersion?: string;
  digest: string;
  name: string;
  namespace: string;
  version: number;
  status: string;
  action?: string;
  chartName: string;
  chartVersion: string;
  appVersion?: string;
  configDigest: string;
  firstDeployed: string;
  lastDeployed: string;
  deleted?: string;
  testHooks?: Record<string, { lastStarted?: string; lastCompleted?: string; phase?: string }>;
  ociDigest?: string;
}

export interface HelmReleaseStatus {
  observedGeneration?: number;
  observedPostRenderersDigest?: string;
  observedCommonMetadataDigest?: string;
  lastAttemptedGeneration?: number;
  conditions?: Condition[];
  helmChart?: string;
  storageNamespace?: string;
  history?: ReleaseSnapshot[];
  lastAttemptedReleaseAction?: "install" | "upgrade";
  lastAttemptedReleaseActionDuration?: string;
  failures?: number;
  installFailures?: number;
  upgradeFailures?: number;
  lastAttemptedRevision?: string;
  lastAttemptedRevisionDigest?: string;
  lastAttemptedConfigDigest?: string;
  lastHandledReconcileAt?: string;
  lastHandledForceAt?: string;
  lastHandledResetAt?: string;
  inventory?: Inventory;
}

export type HelmRelease = KubeObject & { spec: HelmReleaseSpec; status?: HelmReleaseStatus };

export const helmReleaseCrd = () => crdFor(SERVED_KINDS.HelmRelease, helmReleaseSchemas);
