// commonLabels, labels and commonAnnotations: metadata plus, where kustomize does it, selectors and
// pod templates. commonLabels = a labels entry with includeSelectors.
import type { ResMap } from "../res-map.js";
import type { Label } from "../kustomization-file.js";
import type { JsonObject } from "../resource.js";
import type { Json } from "../yaml/emit.js";
import {
  defaultQuoted,
  notesOf,
  type ScalarNote,
  setNote,
  type SharedNode,
  sharedAt,
  writeShared,
} from "../yaml/scalar-style.js";
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
const COMMON_LABEL_SPECS: FieldSpec[] = [
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

/**
 * The style a written field keeps: kyaml's FieldSetter keeps a field's node style, and a node with
 * none (plain, or made by a transformer) reads as go-yaml's default for its new value.
 */
function keptStyle(map: JsonObject, key: string): boolean {
  const n = notesOf(map)?.get(key);
  return n?.quoted ?? (n?.shared ? false : defaultQuoted(map[key]));
}

/**
 * Sets each pair in every map the specs reach, as kyaml does: per resource and key one value node,
 * which every field it creates holds (a later write to one changes all, scalar-style.ts), while a
 * field that exists takes a copy in its own style. The shared node ends with the style of the last
 * existing field written (kyaml sets the style on the shared node before copying it), and an
 * existing field that is itself a shared node changes everywhere that node is held.
 */
function setPairs(resmap: ResMap, pairs: Record<string, string>, specs: FieldSpec[]): void {
  const entries = Object.entries(pairs).sort(([a], [b]) => (a < b ? -1 : 1));
  const maps: JsonObject[] = [];
  for (const r of resmap.list) {
    maps.length = 0;
    applySpecs([r], specs, (_r, parent, key) => {
      const map = parent[key];
      maps.push(map && typeof map === "object" && !Array.isArray(map) ? map : (parent[key] = {}));
    });
    if (!maps.length) continue;
    let writes: Map<SharedNode, { value: Json; note: ScalarNote }> | undefined;
    for (const [k, v] of entries) {
      const value = String(v);
      const shared: ScalarNote = { shared: {} };
      for (const m of maps) {
        if (!Object.hasOwn(m, k)) {
          m[k] = value;
          setNote(m, k, shared);
          continue;
        }
        const old = sharedAt(m, k);
        if (old === shared.shared) continue;
        const quoted = keptStyle(m, k);
        if (quoted) shared.quoted = true;
        else delete shared.quoted;
        const note: ScalarNote = quoted ? { quoted } : {};
        if (old) note.shared = old;
        m[k] = value;
        setNote(m, k, note);
        if (old) (writes ??= new Map()).set(old, { value, note });
      }
    }
    if (writes) writeShared(r.obj, writes);
  }
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

/** Pairs set at metadata/labels and metadata/annotations only, creating them (helm-controller's commonMetadata and origin labels). */
export function setMetadataPairs(
  resmap: ResMap,
  pairs: { labels?: Record<string, string>; annotations?: Record<string, string> },
): void {
  if (pairs.labels && Object.keys(pairs.labels).length) setPairs(resmap, pairs.labels, [METADATA]);
  if (pairs.annotations && Object.keys(pairs.annotations).length)
    setPairs(resmap, pairs.annotations, [{ path: "metadata/annotations", create: true }]);
}
