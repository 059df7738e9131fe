// commonLabels, labels and commonAnnotations: metadata plus, where kustomize does it, selectors and
// pod templates. commonLabels = a labels entry with includeSelectors.
import type { ResMap } from "../accumulate.js";
import type { Label } from "../kustomization-file.js";
import type { JsonObject } from "../resource.js";
import { applySpecs, type FieldSpec } from "./field-spec.js";

const WORKLOAD_TEMPLATES: FieldSpec[] = [
  { kind: "ReplicationController", version: "v1", path: "spec/template/metadata/labels", create: true },
  ...["Deployment", "ReplicaSet", "DaemonSet", "StatefulSet"].map((kind) => ({
    kind,
    group: "apps",
    path: "spec/template/metadata/labels",
    create: true,
  })),
  { kind: "Job", group: "batch", path: "spec/template/metadata/labels", create: true },
  { kind: "CronJob", group: "batch", path: "spec/jobTemplate/metadata/labels", create: true },
  { kind: "CronJob", group: "batch", path: "spec/jobTemplate/spec/template/metadata/labels", create: true },
];

const METADATA: FieldSpec = { path: "metadata/labels", create: true };
const VOLUME_CLAIM_TEMPLATES: FieldSpec = {
  kind: "StatefulSet",
  group: "apps",
  path: "spec/volumeClaimTemplates[]/metadata/labels",
  create: true,
};

const affinity = (kind: string): FieldSpec[] =>
  ["podAffinity", "podAntiAffinity"].flatMap((a) => [
    {
      kind,
      group: "apps",
      path: `spec/template/spec/affinity/${a}/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels`,
    },
    {
      kind,
      group: "apps",
      path: `spec/template/spec/affinity/${a}/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels`,
    },
  ]);

/** kustomize's commonLabels field specs (metadata, selectors, templates). */
export const COMMON_LABEL_SPECS: FieldSpec[] = [
  METADATA,
  { kind: "Service", version: "v1", path: "spec/selector", create: true },
  { kind: "ReplicationController", version: "v1", path: "spec/selector", create: true },
  ...["Deployment", "ReplicaSet", "DaemonSet", "StatefulSet"].map((kind) => ({
    kind,
    group: "apps",
    path: "spec/selector/matchLabels",
    create: true,
  })),
  ...WORKLOAD_TEMPLATES,
  VOLUME_CLAIM_TEMPLATES,
  ...affinity("Deployment"),
  ...affinity("StatefulSet"),
  { kind: "Deployment", group: "apps", path: "spec/template/spec/topologySpreadConstraints/labelSelector/matchLabels" },
  {
    kind: "StatefulSet",
    group: "apps",
    path: "spec/template/spec/topologySpreadConstraints/labelSelector/matchLabels",
  },
  { kind: "Job", group: "batch", path: "spec/selector/matchLabels" },
  { kind: "CronJob", group: "batch", path: "spec/jobTemplate/spec/selector/matchLabels" },
  { kind: "PodDisruptionBudget", group: "policy", path: "spec/selector/matchLabels" },
  { kind: "NetworkPolicy", group: "networking.k8s.io", path: "spec/podSelector/matchLabels" },
  { kind: "NetworkPolicy", group: "networking.k8s.io", path: "spec/ingress/from/podSelector/matchLabels" },
  { kind: "NetworkPolicy", group: "networking.k8s.io", path: "spec/egress/to/podSelector/matchLabels" },
];

const ANNOTATION_SPECS: FieldSpec[] = [
  { path: "metadata/annotations", create: true },
  { kind: "ReplicationController", version: "v1", path: "spec/template/metadata/annotations", create: true },
  ...["Deployment", "ReplicaSet", "DaemonSet", "StatefulSet"].map((kind) => ({
    kind,
    path: "spec/template/metadata/annotations",
    create: true,
  })),
  { kind: "Job", group: "batch", path: "spec/template/metadata/annotations", create: true },
  { kind: "CronJob", group: "batch", path: "spec/jobTemplate/metadata/annotations", create: true },
  { kind: "CronJob", group: "batch", path: "spec/jobTemplate/spec/template/metadata/annotations", create: true },
];

function setPairs(resmap: ResMap, pairs: Record<string, string>, specs: FieldSpec[]): void {
  const entries = Object.entries(pairs).sort(([a], [b]) => (a < b ? -1 : 1));
  applySpecs(resmap.list, specs, (_r, parent, key) => {
    const map = parent[key];
    const target: JsonObject = map && typeof map === "object" && !Array.isArray(map) ? map : (parent[key] = {});
    for (const [k, v] of entries) target[k] = String(v);
  });
}

export function transformLabels(
  resmap: ResMap,
  labels: Label[] | undefined,
  commonLabels: Record<string, string> | undefined,
): void {
  for (const label of labels ?? []) {
    let specs: FieldSpec[] = [...(label.fields ?? [])];
    if (label.includeSelectors) specs = [...specs, ...COMMON_LABEL_SPECS];
    else {
      if (label.includeTemplates) specs = [...specs, ...WORKLOAD_TEMPLATES];
      specs = [...specs, METADATA];
    }
    setPairs(resmap, label.pairs ?? {}, specs);
  }
  if (commonLabels && Object.keys(commonLabels).length) setPairs(resmap, commonLabels, COMMON_LABEL_SPECS);
}

export function transformAnnotations(resmap: ResMap, annotations: Record<string, string> | undefined): void {
  if (annotations && Object.keys(annotations).length) setPairs(resmap, annotations, ANNOTATION_SPECS);
}
