// HelmRepository and HelmChart (source.toolkit.fluxcd.io). v1 is stored; v1beta2 is served for
// manifests from older docs (the Kamaji guide's HelmRepository is v1beta2).
import type { KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import type { Artifact } from "../meta/artifact.js";
import { arr, artifact, bool, condition, crdFor, duration, localRef, obj, open, str } from "../crd.js";
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
    ignoreMissingValuesFiles?: boolean;
    suspend?: boolean;
  };
  status?: SourceStatus & {
    observedSourceArtifactRevision?: string;
    observedChartName?: string;
    observedValuesFiles?: string[];
  };
};

const status = obj({
  observedGeneration: { type: "integer", format: "int64" },
  conditions: arr(condition()),
  artifact: artifact(),
  url: str(),
  lastHandledReconcileAt: str(),
  observedSourceArtifactRevision: str(),
  observedChartName: str(),
  observedValuesFiles: arr(str()),
});

const helmRepositorySpec = (v1: boolean) =>
  obj(
    {
      url: str({ pattern: "^(http|https|oci)://.*$" }),
      secretRef: localRef(),
      certSecretRef: localRef(),
      passCredentials: bool(),
      insecure: bool(),
      interval: duration(),
      timeout: v1 ? duration(false) : { ...duration(false), default: "60s" },
      suspend: bool(),
      accessFrom: open(),
      type: str({ enum: ["default", "oci"] }),
      provider: { ...str({ enum: ["generic", "aws", "azure", "gcp"] }), default: "generic" },
    },
    v1 ? ["url"] : ["url", "interval"],
  );

const helmChartSpec = obj(
  {
    chart: str(),
    version: { ...str(), default: "*" },
    sourceRef: obj(
      { apiVersion: str(), kind: str({ enum: ["HelmRepository", "GitRepository", "Bucket"] }), name: str() },
      ["kind", "name"],
    ),
    interval: duration(),
    reconcileStrategy: { ...str({ enum: ["ChartVersion", "Revision"] }), default: "ChartVersion" },
    valuesFiles: arr(str()),
    valuesFile: str(),
    ignoreMissingValuesFiles: bool(),
    suspend: bool(),
    verify: open(),
    accessFrom: open(),
  },
  ["chart", "sourceRef", "interval"],
);

export const helmRepositoryCrd = () =>
  crdFor(SERVED_KINDS.HelmRepository, {
    v1: { spec: helmRepositorySpec(true), status },
    v1beta2: { spec: helmRepositorySpec(false), status },
  });
export const helmChartCrd = () =>
  crdFor(SERVED_KINDS.HelmChart, {
    v1: { spec: helmChartSpec, status },
    v1beta2: { spec: helmChartSpec, status },
  });
