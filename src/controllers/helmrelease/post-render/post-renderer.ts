// The HelmRelease post-renderer, as its parts' contract (is12-base) names it: postRender (render.ts),
// the helm plugin that runs it (plugin.ts) and the status digests of what it is built from (digests.ts).
export { postRender, PostRenderError } from "./render.js";
export { postRenderersDigest, commonMetadataDigest } from "./digests.js";
export { preparePostRenderer, postRenderFailure, runPostRenderPlugin } from "./plugin.js";
