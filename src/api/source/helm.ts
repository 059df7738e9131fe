// HelmRepository and HelmChart (source.toolkit.fluxcd.io). v1 is stored; v1beta2 is served for
// manifests from older docs (the Kamaji guide's HelmRepository is v1beta2).
import type { KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import type { Artifact } from "../meta/artifact.js";
import {
  AGE_COLUMN,
  arr,
  artifact,
  bool,
  condition,
  crdFor,
  duration,
  type KindDefinition,
  localRef,
  obj,
  open,
  READY_COLUMNS,
  str,
} from "../crd.js";
import { SOURCE_GROUP } from "./git-repository.js";

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
const urlColumn = { name: "URL", type: "string", jsonPath: ".spec.url" };

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

export const helmRepositoryDefinition: KindDefinition = {
  group: SOURCE_GROUP,
  kind: "HelmRepository",
  plural: "helmrepositories",
  singular: "helmrepository",
  shortNames: ["helmrepo"],
  categories: ["all", "fluxcd", "fluxcd-sources"],
  versions: [
    {
      name: "v1",
      storage: true,
      spec: helmRepositorySpec(true),
      status,
      columns: [urlColumn, AGE_COLUMN, ...READY_COLUMNS],
    },
    {
      name: "v1beta2",
      storage: false,
      deprecated: true,
      spec: helmRepositorySpec(false),
      status,
      columns: [urlColumn, AGE_COLUMN, ...READY_COLUMNS],
    },
  ],
};

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

const chartColumns = [
  { name: "Chart", type: "string", jsonPath: ".spec.chart" },
  { name: "Version", type: "string", jsonPath: ".spec.version" },
  { name: "Source Kind", type: "string", jsonPath: ".spec.sourceRef.kind" },
  { name: "Source Name", type: "string", jsonPath: ".spec.sourceRef.name" },
  AGE_COLUMN,
  ...READY_COLUMNS,
];

export const helmChartDefinition: KindDefinition = {
  group: SOURCE_GROUP,
  kind: "HelmChart",
  plural: "helmcharts",
  singular: "helmchart",
  shortNames: ["hc"],
  categories: ["all", "fluxcd", "fluxcd-sources"],
  versions: [
    { name: "v1", storage: true, spec: helmChartSpec, status, columns: chartColumns },
    { name: "v1beta2", storage: false, deprecated: true, spec: helmChartSpec, status, columns: chartColumns },
  ],
};

export const helmRepositoryCrd = () => crdFor(helmRepositoryDefinition);
export const helmChartCrd = () => crdFor(helmChartDefinition);
