// HelmRepository and HelmChart (source.toolkit.fluxcd.io). v1 is stored; v1beta2 and v1beta1 are served
// for manifests from older docs (the Kamaji guide's HelmRepository is v1beta2, flux2-multi-tenancy's
// v1beta1; v1beta1's schema is v1beta2's without the fields v1beta2 added). The schemas are Flux's
// field for field (source-controller v1.9 for v1, v1.7 for v1beta2), so the API server prunes what
// Flux's CRD does not have. One addition: v1 HelmChart also carries v1beta2's valuesFile, merged
// before valuesFiles as Flux did, since converting a v1beta2 object to the stored v1 prunes by v1's
// schema and the file would otherwise vanish without a word.
import type { KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import type { Artifact } from "../meta/artifact.js";
import { accessFrom, arr, bool, crdFor, duration, localRef, obj, str, withoutFields, withRules } from "../crd.js";
import { sourceStatusFields } from "./source-status-schema.js";
import { SERVED_KINDS } from "../kinds.js";

export interface SourceStatus {
  observedGeneration?: number;
  conditions?: Condition[];
  artifact?: Artifact;
  url?: string;
  lastHandledReconcileAt?: string;
}

export type HelmRepository = KubeObject & {
  spec: {
    url: string;
    secretRef?: { name: string };
    certSecretRef?: { name: string };
    interval?: string;
    timeout?: string;
    suspend?: boolean;
    type?: "default" | "oci";
    passCredentials?: boolean;
    insecure?: boolean;
    provider?: "generic" | "aws" | "azure" | "gcp";
  };
  status?: SourceStatus;
};

export type HelmChart = KubeObject & {
  spec: {
    chart: string;
    version?: string;
    sourceRef: { kind: "HelmRepository" | "GitRepository" | "Bucket"; name: string; apiVersion?: string };
    interval: string;
    reconcileStrategy?: "ChartVersion" | "Revision";
    valuesFiles?: string[];
    /** v1beta2, merged before valuesFiles. */
    valuesFile?: string;
    ignoreMissingValuesFiles?: boolean;
    suspend?: boolean;
    verify?: { provider: "cosign" | "notation"; secretRef?: { name: string }; matchOIDCIdentity?: unknown[] };
  };
  status?: SourceStatus & {
    observedSourceArtifactRevision?: string;
    observedChartName?: string;
    observedValuesFiles?: string[];
  };
};

const repositoryStatus = (version: string) => obj(sourceStatusFields(version, { url: str() }));
const chartStatus = (version: string) =>
  obj({
    ...sourceStatusFields(version, { url: str() }),
    observedSourceArtifactRevision: str(),
    observedChartName: str(),
    observedValuesFiles: arr(str()),
  });

// Identical in v1 and v1beta2.
const helmRepositorySpec = obj(
  {
    url: str({ pattern: "^(http|https|oci)://.*$" }),
    secretRef: localRef(),
    certSecretRef: localRef(),
    passCredentials: bool(),
    insecure: bool(),
    interval: duration(),
    timeout: duration(false),
    suspend: bool(),
    accessFrom: accessFrom(),
    type: str({ enum: ["default", "oci"] }),
    provider: { ...str({ enum: ["generic", "aws", "azure", "gcp"] }), default: "generic" },
  },
  ["url"],
);

const helmChartFields = {
  chart: str(),
  version: { ...str(), default: "*" },
  sourceRef: obj(
    { apiVersion: str(), kind: str({ enum: ["HelmRepository", "GitRepository", "Bucket"] }), name: str() },
    ["kind", "name"],
  ),
  interval: duration(),
  reconcileStrategy: { ...str({ enum: ["ChartVersion", "Revision"] }), default: "ChartVersion" },
  valuesFiles: arr(str()),
  // v1beta2's; see the note at the top for why v1 keeps it.
  valuesFile: str(),
  ignoreMissingValuesFiles: bool(),
  suspend: bool(),
  verify: obj(
    {
      provider: { ...str({ enum: ["cosign", "notation"] }), default: "cosign" },
      secretRef: localRef(),
      matchOIDCIdentity: arr(obj({ issuer: str(), subject: str() }, ["issuer", "subject"])),
    },
    ["provider"],
  ),
};
const required = ["chart", "sourceRef", "interval"];

const helmChartV1Spec = withRules(obj(helmChartFields, required), [
  [
    "!has(self.verify) || self.sourceRef.kind == 'HelmRepository'",
    "spec.verify is only supported when spec.sourceRef.kind is 'HelmRepository'",
  ],
]);
const helmChartV1beta2Spec = obj({ ...helmChartFields, accessFrom: accessFrom() }, required);

export const helmRepositoryCrd = () =>
  crdFor(SERVED_KINDS.HelmRepository, {
    v1: { spec: helmRepositorySpec, status: repositoryStatus("v1") },
    v1beta2: { spec: helmRepositorySpec, status: repositoryStatus("v1beta2") },
    v1beta1: {
      spec: withoutFields(helmRepositorySpec, ["certSecretRef", "insecure", "provider", "type"]),
      status: repositoryStatus("v1beta1"),
    },
  });
export const helmChartCrd = () =>
  crdFor(SERVED_KINDS.HelmChart, {
    v1: { spec: helmChartV1Spec, status: chartStatus("v1") },
    v1beta2: { spec: helmChartV1beta2Spec, status: chartStatus("v1beta2") },
    v1beta1: {
      spec: withoutFields(helmChartV1beta2Spec, ["ignoreMissingValuesFiles", "verify"]),
      status: repositoryStatus("v1beta1"),
    },
  });
