// Native kustomize: `kustomize build`, byte-identical to kustomize v5, in-process.
export { type BuildOptions, buildKustomization, buildResources } from "./build.js";
export { KustomizeError, LoadRestrictionError, UnsupportedFieldError } from "./errors.js";
