// Why a reconcile ended not Ready, in Flux's terms, for every kind: the reason and message go to the
// Ready condition and the Warning event; `stalled` marks a spec problem that retrying cannot fix
// (Stalled=True, no requeue); `retryAfterMs` marks a wait for another object (a dependency, a
// source's artifact) rather than an error: retried after that long, logged, no Warning event.
import { FlotillaError } from "../../util/errors.js";

export interface FailureOptions {
  stalled?: boolean;
  retryAfterMs?: number;
  /** The negative-polarity condition naming the failing step, for kinds that have them (sources: FetchFailed...). */
  condition?: string;
}

export class ReconcileFailure extends FlotillaError {
  override name = "ReconcileFailure";
  readonly stalled: boolean;
  readonly retryAfterMs?: number;
  readonly condition?: string;

  constructor(
    readonly reason: string,
    message: string,
    options: FailureOptions = {},
  ) {
    super(message);
    this.stalled = options.stalled ?? false;
    this.retryAfterMs = options.retryAfterMs;
    this.condition = options.condition;
  }
}

/** `err` as a ReconcileFailure: itself when it is one, else what `wrap` makes of its message. */
export function asFailure(err: unknown, wrap: (message: string) => ReconcileFailure): ReconcileFailure {
  return err instanceof ReconcileFailure ? err : wrap((err as Error).message);
}
