// The CLI's own errors. Both extend the one error root, so the runner (runner.ts) prints them as one `✗`
// line and never as "unexpected error".
import { FlotillaError } from "../util/errors.js";

/** A mistake on the command line itself (a flag's value, a missing argument): exit 1. */
export class UsageError extends FlotillaError {
  override name = "UsageError";
}

/** The cluster's answer to what was asked: a reconcile that failed or timed out, a resource suspended. */
export class OutcomeError extends FlotillaError {
  override name = "OutcomeError";
}

/**
 * Ends the verb with this exit code: a result rather than a failure (diff's 1 "something would change",
 * plan's 0/1/2), or a failure already reported line by line. A message, when given, is one `✗` line.
 */
export class ExitError extends FlotillaError {
  override name = "ExitError";
  readonly code: number;

  constructor(code: number, message?: string) {
    super(message ?? "");
    this.code = code;
  }
}
