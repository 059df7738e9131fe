// Why a GitRepository reconcile stopped, in Flux's terms: the reason and message go to Ready and to
// the condition naming the failing step; `retryAfterMs` marks a wait for something else (an include
// without an artifact) rather than an error to back off from; `stalled` marks a spec problem that
// retrying cannot fix.
import { FlotillaError } from "../../util/errors.js";

export type FailureCondition = "FetchFailed" | "IncludeUnavailable" | "StorageOperationFailed" | "SourceVerified";

export class SourceFailure extends FlotillaError {
  override name = "SourceFailure";
  constructor(
    readonly reason: string,
    message: string,
    readonly condition: FailureCondition = "FetchFailed",
    readonly options: { retryAfterMs?: number; stalled?: boolean } = {},
  ) {
    super(message);
  }
}
