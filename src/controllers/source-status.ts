// Shared by the source reconcilers: Flux's Ready summary of success and failure
// (reading objects and writing status: source-objects.ts).
import { setCondition } from "../runtime/conditions.js";
import { type Condition, READY } from "../api/meta/conditions.js";

const CLEARED_ON_SUCCESS = [
  "FetchFailed",
  "IncludeUnavailable",
  "ArtifactOutdated",
  "StorageOperationFailed",
  "BuildFailed",
  "Reconciling",
  "Stalled",
];

export function succeeded(
  conditions: Condition[] | undefined,
  generation: number | undefined,
  reason: string,
  message: string,
): Condition[] {
  let out = (conditions ?? []).filter((c) => !CLEARED_ON_SUCCESS.includes(c.type));
  out = setCondition(out, {
    type: "ArtifactInStorage",
    status: "True",
    reason,
    message,
    observedGeneration: generation,
  });
  return setCondition(out, { type: READY, status: "True", reason, message, observedGeneration: generation });
}

/**
 * Ready=False with the failure's reason, and the negative-polarity condition that names the failing
 * step (FetchFailed by default; IncludeUnavailable, StorageOperationFailed, BuildFailed...) set True.
 * SourceVerified is the exception: it is bipolar, so a failed verification sets it False.
 */
export function failed(
  conditions: Condition[] | undefined,
  generation: number | undefined,
  reason: string,
  message: string,
  conditionType = "FetchFailed",
): Condition[] {
  const status = conditionType === "SourceVerified" ? "False" : "True";
  const out = setCondition(conditions ?? [], {
    type: conditionType,
    status,
    reason,
    message,
    observedGeneration: generation,
  });
  return setCondition(out, { type: READY, status: "False", reason, message, observedGeneration: generation });
}
