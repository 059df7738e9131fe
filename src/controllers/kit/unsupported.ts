// Flux fields flotilla does not implement, refused by name. Each kind keeps one table of them
// (its folder's unsupported-fields.ts), checked at the start of every reconcile: an object that
// uses one is Stalled with a message naming the field and what to do instead, rather than being
// reconciled without it — never a silent skip, and never a fallback such as applying a remote
// cluster's objects to the management cluster.
import { ReconcileFailure } from "./failure.js";

export const UNSUPPORTED_FIELD = "UnsupportedField";

export interface UnsupportedField<Spec> {
  /** The field as written in the object, for the table in the docs: "spec.kubeConfig.configMapRef". */
  field: string;
  /** How this object uses it ("spec.dependsOn[1].readyExpr", "spec.provider 'azure'"), or undefined. */
  find: (spec: Spec) => string | undefined;
  /** What to do instead. */
  instead: string;
  /** Flux's reason when an earlier flotilla already refused the field with it; else UnsupportedField. */
  reason?: string;
  /** The whole message, when an earlier flotilla already refused the field with it. */
  message?: string;
}

/** The first unsupported field the spec uses, as the failure that stalls the object; undefined when none. */
export function unsupportedField<Spec>(spec: Spec, table: UnsupportedField<Spec>[]): ReconcileFailure | undefined {
  for (const entry of table) {
    const used = entry.find(spec);
    if (used === undefined) continue;
    const message = entry.message ?? `${used} is not supported by flotilla: ${entry.instead}`;
    return new ReconcileFailure(entry.reason ?? UNSUPPORTED_FIELD, message, { stalled: true });
  }
  return undefined;
}

/** Throws the failure for the first unsupported field the spec uses. */
export function refuseUnsupported<Spec>(spec: Spec, table: UnsupportedField<Spec>[]): void {
  const failure = unsupportedField(spec, table);
  if (failure) throw failure;
}
