// Shared by the source reconcilers: the conditions Flux's source-controller sets
// next to Ready (which the kit sets: kit/outcome.ts) — ArtifactInStorage on success, the
// negative-polarity condition naming the failing step on failure.
import { setCondition } from "../runtime/conditions.js";
import type { Condition } from "../api/meta/conditions.js";
import { ArtifactStorageError } from "../sources/artifact/errors.js";
import { asFailure, ReconcileFailure } from "./kit/failure.js";

const FAILURE_CONDITIONS = [
  "FetchFailed",
  "IncludeUnavailable",
  "ArtifactOutdated",
  "StorageOperationFailed",
  "BuildFailed",
];

/** ArtifactInStorage=True with the success's reason and message; the failure conditions cleared. */
export function artifactStored(
  conditions: Condition[] | undefined,
  generation: number | undefined,
  reason: string,
  message: string,
): Condition[] {
  const out = (conditions ?? []).filter((c) => !FAILURE_CONDITIONS.includes(c.type));
  return setCondition(out, {
    type: "ArtifactInStorage",
    status: "True",
    reason,
    message,
    observedGeneration: generation,
  });
}

/**
 * The condition naming the failing step (FetchFailed by default; IncludeUnavailable,
 * StorageOperationFailed, BuildFailed...) set True with the failure's reason and message.
 * SourceVerified is the exception: it is bipolar, so a failed verification sets it False.
 */
export function failedStep(
  conditions: Condition[] | undefined,
  generation: number | undefined,
  failure: ReconcileFailure,
): Condition[] {
  const type = failure.condition ?? "FetchFailed";
  return setCondition(conditions ?? [], {
    type,
    status: type === "SourceVerified" ? "False" : "True",
    reason: failure.reason,
    message: failure.message,
    observedGeneration: generation,
  });
}

/**
 * `err` as a source reconciler's failure: an artifact that could not be written (a full disk) is
 * Flux's StorageOperationFailed/ArchiveOperationFailed, anything else what `wrap` makes of it.
 */
export function sourceFailure(err: unknown, wrap: (message: string) => ReconcileFailure): ReconcileFailure {
  if (err instanceof ArtifactStorageError)
    return new ReconcileFailure("ArchiveOperationFailed", err.message, { condition: "StorageOperationFailed" });
  return asFailure(err, wrap);
}
