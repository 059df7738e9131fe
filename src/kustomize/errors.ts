// Errors of the native kustomize. Each names the kustomization or file (and document index in
// multi-document files) and, where one is involved, the object — kustomize's own messages often
// name neither.
import { FlotillaError } from "../util/errors.js";

export class KustomizeError extends FlotillaError {
  override name = "KustomizeError";
}

/** A kustomization field we do not implement: refused, never silently ignored. */
export class UnsupportedFieldError extends KustomizeError {
  override name = "UnsupportedFieldError";
}

/** A path outside the kustomization root, or a remote base while remote bases are off. */
export class LoadRestrictionError extends KustomizeError {
  override name = "LoadRestrictionError";
}
