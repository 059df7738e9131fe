// The builtin transformers of one kustomization, in kustomize's order. Fields we do not implement
// never reach here: kustomization-file.ts refuses them by name.
import type { ResMap } from "../res-map.js";
import type { KustomizationFile } from "../kustomization-file.js";
import type { Loader } from "../loader.js";
import { transformPatches, transformPatchesStrategicMerge } from "../patches/transform.js";
import { transformImages } from "./images.js";
import { transformAnnotations, transformLabels } from "./labels.js";
import { transformNamespace } from "./namespace.js";
import { transformPrefixSuffix } from "./prefix-suffix.js";
import { transformReplacements } from "./replacements.js";
import { transformReplicas } from "./replicas.js";

type Step = {
  /** The builtin plugin kind kustomize runs for it (transformer annotations name it). */
  kind: string;
  /** How many instances kustomize configures from the kustomization (one annotation each). */
  count: (k: KustomizationFile) => number;
  run: (k: KustomizationFile, resmap: ResMap, loader: Loader, where: string) => void;
};

const n = (list: unknown[] | undefined) => list?.length ?? 0;
const one = (set: unknown) => (set && (typeof set !== "object" || Object.keys(set).length) ? 1 : 0);

/** kustomize's builtin transformer order. */
const STEPS: Step[] = [
  {
    kind: "PatchStrategicMergeTransformer",
    count: (k) => Math.min(1, n(k.patchesStrategicMerge)),
    run: (k, resmap, loader, where) => transformPatchesStrategicMerge(resmap, k.patchesStrategicMerge, loader, where),
  },
  {
    kind: "PatchTransformer",
    count: (k) => n(k.patches),
    run: (k, resmap, loader, where) => transformPatches(resmap, k.patches, loader, where),
  },
  {
    kind: "NamespaceTransformer",
    count: (k) => one(k.namespace),
    run: (k, resmap, _loader, where) => transformNamespace(resmap, k.namespace, where),
  },
  {
    kind: "PrefixTransformer",
    count: (k) => one(k.namePrefix),
    run: (k, resmap) => transformPrefixSuffix(resmap, k.namePrefix, ""),
  },
  {
    kind: "SuffixTransformer",
    count: (k) => one(k.nameSuffix),
    run: (k, resmap) => transformPrefixSuffix(resmap, "", k.nameSuffix),
  },
  {
    kind: "LabelTransformer",
    // One per labels entry, and one for commonLabels whenever either is set.
    count: (k) => (n(k.labels) || one(k.commonLabels) ? n(k.labels) + 1 : 0),
    run: (k, resmap) => transformLabels(resmap, k.labels, k.commonLabels),
  },
  {
    kind: "AnnotationsTransformer",
    count: (k) => one(k.commonAnnotations),
    run: (k, resmap) => transformAnnotations(resmap, k.commonAnnotations),
  },
  {
    kind: "PatchJson6902Transformer",
    count: (k) => n(k.patchesJson6902),
    run: (k, resmap, loader, where) => transformPatches(resmap, k.patchesJson6902, loader, where, "patchesJson6902"),
  },
  {
    kind: "ReplicaCountTransformer",
    count: (k) => n(k.replicas),
    run: (k, resmap, _loader, where) => transformReplicas(resmap, k.replicas, where),
  },
  { kind: "ImageTagTransformer", count: (k) => n(k.images), run: (k, resmap) => transformImages(resmap, k.images) },
  {
    kind: "ReplacementTransformer",
    count: (k) => Math.min(1, n(k.replacements)),
    run: (k, resmap, loader, where) => transformReplacements(resmap, k.replacements, loader, where),
  },
];

/** Runs the builtin transformers; `ran` hears of each instance that ran (for transformer annotations). */
export function runTransformers(
  k: KustomizationFile,
  resmap: ResMap,
  loader: Loader,
  where: string,
  ran?: (kind: string) => void,
): void {
  for (const step of STEPS) {
    step.run(k, resmap, loader, where);
    if (ran) for (let i = step.count(k); i > 0; i--) ran(step.kind);
  }
}
