// The status every source kind writes, as Flux's CRDs declare it: observedGeneration, conditions,
// the artifact (v1beta1's shape for v1beta1), the kind's own fields, lastHandledReconcileAt.
import { arr, artifact, artifactV1beta1, condition, str, type Schema } from "../crd.js";

/** A source kind's artifact in one API version: v1beta1's has a checksum where later ones have a digest. */
export const artifactIn = (version: string): Schema => (version === "v1beta1" ? artifactV1beta1() : artifact());

/** The status fields of one version, in Flux's order, with the kind's own after the artifact. */
export const sourceStatusFields = (version: string, own: Record<string, Schema> = {}): Record<string, Schema> => ({
  observedGeneration: { type: "integer", format: "int64" },
  conditions: arr(condition()),
  artifact: artifactIn(version),
  ...own,
  lastHandledReconcileAt: str(),
});
