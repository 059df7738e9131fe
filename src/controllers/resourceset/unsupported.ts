// What flotilla's ResourceSet controller does not implement yet, refused by name (decision 0040):
// Stalled with a message naming the field or annotation, never reconciled without it.
import type { KubeObject } from "../../api/meta/object.js";
import { OPERATOR_ANNOTATIONS, type ResourceSetSpec } from "../../api/operator/resourceset.js";
import type { UnsupportedField } from "../kit/unsupported.js";
import { ReconcileFailure } from "../kit/failure.js";
import { UNSUPPORTED_FIELD } from "../kit/unsupported.js";

export const RESOURCESET_UNSUPPORTED: UnsupportedField<ResourceSetSpec>[] = [
  {
    field: "spec.dependsOn[].readyExpr",
    find: (s) => {
      const i = (s.dependsOn ?? []).findIndex((d) => d.readyExpr);
      return i < 0 ? undefined : `spec.dependsOn[${i}].readyExpr`;
    },
    instead: "use ready: true (the dependency's Ready condition)",
  },
];

const OBJECT_ANNOTATIONS = [OPERATOR_ANNOTATIONS.recreateOnFailure];

/** A generated object carrying an operator annotation flotilla does not act on. */
export function refuseObjectAnnotations(objects: KubeObject[]): void {
  for (const o of objects)
    for (const a of OBJECT_ANNOTATIONS)
      if (o.metadata.annotations?.[a] !== undefined)
        throw new ReconcileFailure(
          UNSUPPORTED_FIELD,
          `the annotation ${a} on ${o.kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ""}${o.metadata.name} is not supported by flotilla (decision 0040): generate the object's final content in the template instead`,
          { stalled: true },
        );
}
