// kustomize on objects held in memory, for helm-controller's post-renderer: it builds a kustomization
// whose one resource is helm's output (patches, images) in an in-memory file system, then labels and
// annotates the objects' metadata — kustomize's transformers and printer, no files. The build keeps
// the input order (helm-controller's krusty options leave Reorder unset, so nothing is sorted).
import { type Image, type Patch } from "./kustomization-file.js";
import { ResMap, resourcesFromDocuments } from "./res-map.js";
import { transformPatches } from "./patches/transform.js";
import { transformImages } from "./transformers/images.js";
import { setMetadataPairs } from "./transformers/labels.js";
import { finalize } from "./transformers/finalize.js";
import { toYaml } from "./yaml/emit.js";
import { parseYamlDocuments } from "./yaml/parse.js";

export type { Image, Patch, Target } from "./kustomization-file.js";
export { ResMap };

/** The objects of a multi-document YAML text (Lists expanded, empty documents dropped, ids unique). */
export function parseManifests(text: string, source: string): ResMap {
  const resmap = new ResMap();
  for (const r of resourcesFromDocuments(parseYamlDocuments(text, source, { printedByKyaml: true }), source))
    resmap.add(r, source);
  return resmap;
}

/**
 * One kustomization over `resmap`, in kustomize's transformer order: strategic merge patches, patches,
 * JSON 6902 patches, images; then kustomize's end of build (name references, local-config objects
 * dropped, annotations as strings). Patches must be inline. `where` names the kustomization in errors.
 */
export function kustomizeInMemory(
  resmap: ResMap,
  k: { patchesStrategicMerge?: Patch[]; patches?: Patch[]; patchesJson6902?: Patch[]; images?: Image[] },
  where: string,
): void {
  transformPatches(resmap, k.patchesStrategicMerge, undefined, where, "patchesStrategicMerge");
  transformPatches(resmap, k.patches, undefined, where);
  transformPatches(resmap, k.patchesJson6902, undefined, where, "patchesJson6902");
  transformImages(resmap, k.images);
  resmap.list.splice(0, resmap.list.length, ...finalize(resmap.list));
}

/** Labels and annotations on every object's metadata (nothing else: no selectors, no templates). */
export function setMetadata(
  resmap: ResMap,
  pairs: { labels?: Record<string, string>; annotations?: Record<string, string> },
): void {
  setMetadataPairs(resmap, pairs);
}

/** The objects as kustomize prints a build (go-yaml v2, `---` between documents). */
export function printManifests(resmap: ResMap): string {
  return resmap.list.map((r) => toYaml(r.obj)).join("---\n");
}
