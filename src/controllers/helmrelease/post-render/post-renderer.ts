// CONTRACT STUB (is12-base): owned by the values/post-render helper, who replaces the bodies.
// Every manifest helm installs goes through flotilla's post-renderer: spec.postRenderers (kustomize
// patches and images, v2beta patchesStrategicMerge/patchesJson6902 too), then commonMetadata, then the
// origin labels helm.toolkit.fluxcd.io/name and /namespace (helm-controller's order).
import type { HelmHome } from "../../../binaries/helm/index.js";
import type { HelmRelease } from "../../../api/helm/helmrelease.js";

/** Pure: rendered multi-document YAML in, post-rendered multi-document YAML out. */
export function postRender(_manifests: string, _hr: HelmRelease): string {
  throw new Error("not implemented");
}

/**
 * Installs flotilla's postrenderer/v1 plugin into `home` (its HELM_PLUGINS) with what it needs to
 * post-render for `hr`, and returns the helm arguments that use it (`--post-renderer …`).
 */
export function preparePostRenderer(_home: HelmHome, _hr: HelmRelease): string[] {
  throw new Error("not implemented");
}

/** digest of spec.postRenderers / spec.commonMetadata for status.observedPostRenderersDigest / observedCommonMetadataDigest. */
export function postRenderersDigest(_hr: HelmRelease): string | undefined {
  throw new Error("not implemented");
}
export function commonMetadataDigest(_hr: HelmRelease): string | undefined {
  throw new Error("not implemented");
}
