// Annotations and the finalizer that are part of Flux's API: users and the flux CLI write the
// reconcile annotations, controllers read them; the finalizer guards every Flux object's cleanup.

/** `flux reconcile` stamps this; a new value asks for a reconcile now. */
export const REQUESTED_AT_ANNOTATION = "reconcile.fluxcd.io/requestedAt";
/** HelmRelease: with requestedAt, asks for a forced upgrade. */
export const FORCE_AT_ANNOTATION = "reconcile.fluxcd.io/forceAt";
/** HelmRelease: with requestedAt, resets the failure counters. */
export const RESET_AT_ANNOTATION = "reconcile.fluxcd.io/resetAt";

/** On an applied object, `disabled` keeps post-build substitution away from it. */
export const SUBSTITUTE_ANNOTATION = "kustomize.toolkit.fluxcd.io/substitute";

/** The finalizer every Flux controller puts on the objects it reconciles. */
export const FLUX_FINALIZER = "finalizers.fluxcd.io";
