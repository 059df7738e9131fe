// Every manifest helm installs for a HelmRelease goes through flotilla's post-renderer, in
// helm-controller's order (internal/postrender/build.go): each spec.postRenderers[].kustomize (its
// patches and images, as a kustomization whose one resource is helm's output), then commonMetadata
// on every object's metadata, then the origin labels helm.toolkit.fluxcd.io/name and /namespace
// (last, so they win over a commonMetadata label of the same key). The v2beta fields
// patchesStrategicMerge and patchesJson6902 are read here too, in kustomize's order around patches.
import type { HelmRelease, PostRenderer } from "../../../api/helm/helmrelease.js";
import {
  kustomizeInMemory,
  type Patch,
  parseManifests,
  printManifests,
  setMetadata,
  type Target,
} from "../../../kustomize/in-memory.js";
import { KustomizeError } from "../../../kustomize/errors.js";
import { FlotillaError } from "../../../util/errors.js";

const ORIGIN_GROUP = "helm.toolkit.fluxcd.io";

export class PostRenderError extends FlotillaError {
  override name = "PostRenderError";
}

type Kustomize = NonNullable<PostRenderer["kustomize"]>;

/** A v2beta patchesStrategicMerge entry (an object) or a v2 patch, as an inline kustomize patch. */
const inline = (patch: unknown, target?: Record<string, string>): Patch => ({
  patch: typeof patch === "string" ? patch : JSON.stringify(patch),
  target: target as Target | undefined,
});

function kustomization(k: Kustomize) {
  return {
    patchesStrategicMerge: (k.patchesStrategicMerge ?? []).map((p) => inline(p)),
    patches: (k.patches ?? []).map((p) => inline(p.patch, p.target)),
    patchesJson6902: (k.patchesJson6902 ?? []).map((p) => inline(p.patch, p.target)),
    images: k.images,
  };
}

/** Pure: rendered multi-document YAML in, post-rendered multi-document YAML out. */
export function postRender(manifests: string, hr: HelmRelease): string {
  const { name, namespace } = hr.metadata;
  const who = `HelmRelease ${namespace}/${name}`;
  try {
    const resmap = parseManifests(manifests, `the manifests helm rendered for ${who}`);
    (hr.spec.postRenderers ?? []).forEach((r, i) => {
      if (r.kustomize)
        kustomizeInMemory(resmap, kustomization(r.kustomize), `${who} spec.postRenderers[${i}].kustomize`);
    });
    if (hr.spec.commonMetadata) setMetadata(resmap, hr.spec.commonMetadata);
    setMetadata(resmap, {
      labels: { [`${ORIGIN_GROUP}/name`]: name!, [`${ORIGIN_GROUP}/namespace`]: namespace! },
    });
    return printManifests(resmap);
  } catch (err) {
    if (err instanceof KustomizeError || err instanceof FlotillaError)
      throw new PostRenderError(`post-rendering ${who} failed: ${err.message}`);
    throw err;
  }
}
