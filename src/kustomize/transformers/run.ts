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

type Step = (k: KustomizationFile, resmap: ResMap, loader: Loader, where: string) => void;

/** kustomize's builtin transformer order. */
const STEPS: Step[] = [
  (k, resmap, loader, where) => transformPatchesStrategicMerge(resmap, k.patchesStrategicMerge, loader, where),
  (k, resmap, loader, where) => transformPatches(resmap, k.patches, loader, where),
  (k, resmap, _loader, where) => transformNamespace(resmap, k.namespace, where),
  (k, resmap) => transformPrefixSuffix(resmap, k.namePrefix, ""),
  (k, resmap) => transformPrefixSuffix(resmap, "", k.nameSuffix),
  (k, resmap) => transformLabels(resmap, k.labels, k.commonLabels),
  (k, resmap) => transformAnnotations(resmap, k.commonAnnotations),
  (k, resmap, loader, where) => transformPatches(resmap, k.patchesJson6902, loader, where, "patchesJson6902"),
  (k, resmap, _loader, where) => transformReplicas(resmap, k.replicas, where),
  (k, resmap) => transformImages(resmap, k.images),
  (k, resmap, loader, where) => transformReplacements(resmap, k.replacements, loader, where),
];

export function runTransformers(k: KustomizationFile, resmap: ResMap, loader: Loader, where: string): void {
  for (const step of STEPS) step(k, resmap, loader, where);
}
