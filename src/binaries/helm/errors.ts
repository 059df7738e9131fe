// helm's failures as typed errors. helm reports everything as text on stderr ("Error: ..." last), so
// the few failures callers act on differently — a missing chart or release, a release locked by
// another operation, a timeout, refused credentials — are recognised from that text; anything else is
// a HelmCommandError that keeps helm's own words. Missing or unusable binaries have their own classes,
// whose messages say what to do.
import { FlotillaError } from "../../util/errors.js";

/** What one helm run printed and how it ended. */
export interface HelmResult {
  stdout: string;
  stderr: string;
  /** Exit code; null when the process was killed by a signal. */
  code: number | null;
}

/** The root of helm's error family; `result` is set when helm ran. */
export class HelmError extends FlotillaError {
  override name = "HelmError";
  constructor(
    message: string,
    readonly result?: HelmResult,
  ) {
    super(message);
  }

  /** Everything helm wrote to stderr (empty when it did not run). */
  get stderr(): string {
    return this.result?.stderr ?? "";
  }
}

/** No helm binary where we look, or it cannot be started. */
export class HelmNotFoundError extends HelmError {
  override name = "HelmNotFoundError";
}
/** The helm found is not a version we support. */
export class HelmVersionError extends HelmError {
  override name = "HelmVersionError";
}
/** Any other failure: the message is helm's own last line. */
export class HelmCommandError extends HelmError {
  override name = "HelmCommandError";
}
export class HelmChartNotFoundError extends HelmCommandError {
  override name = "HelmChartNotFoundError";
}
export class HelmReleaseNotFoundError extends HelmCommandError {
  override name = "HelmReleaseNotFoundError";
}
/** The release is locked by a pending install/upgrade/rollback. */
export class HelmOperationInProgressError extends HelmCommandError {
  override name = "HelmOperationInProgressError";
}
/** helm's own wait timed out, or we stopped it after the caller's timeout. */
export class HelmTimeoutError extends HelmCommandError {
  override name = "HelmTimeoutError";
}
/** A registry or chart repository refused the credentials (HTTP 401 or 403). */
export class HelmAuthenticationError extends HelmCommandError {
  override name = "HelmAuthenticationError";
}
/** The caller's AbortSignal stopped the run. */
export class HelmCancelledError extends HelmError {
  override name = "HelmCancelledError";
}

// 401/403 as whole tokens: never the digits of a port (":4010", ":401/") or of an address.
const AUTH = /(?:^|[\s("'])(?:401|403)(?=$|[\s)"',:])|\b(?:unauthorized|authentication required)\b/im;
const OPERATION_IN_PROGRESS = /another operation \(install\/upgrade\/rollback\) is in progress/i;
const RELEASE_NOT_FOUND = /release: not found|has no deployed releases|release "[^"]*" not found/i;
const CHART_NOT_FOUND =
  /chart "[^"]*"(?: version "[^"]*")? not found|no chart (?:name|version) found|path "[^"]*" not found|no Chart\.yaml exists|failed to download "[^"]*"|not found in [^\s]+ repository/i;
const TIMED_OUT = /timed out waiting for the condition|context deadline exceeded|\btimeout\b.*\bexceeded\b/i;

/**
 * helm's message: from its last "Error: ..." line to the end (helm prints warnings before it, and
 * some errors span lines, e.g. a wait's "...not ready" then "context deadline exceeded"), else the
 * last line.
 */
export function helmMessage(stderr: string, fallback: string): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const start = lines.findLastIndex((l) => l.startsWith("Error:"));
  if (start >= 0) return lines.slice(start).join("\n");
  return lines.at(-1) ?? fallback;
}

/** The typed error for a helm run that exited non-zero. */
export function helmErrorFrom(args: readonly string[], result: HelmResult): HelmCommandError {
  const message = helmMessage(result.stderr, `helm ${args[0] ?? ""} exited with ${result.code}`);
  const text = result.stderr;
  if (AUTH.test(text)) return new HelmAuthenticationError(message, result);
  if (OPERATION_IN_PROGRESS.test(text)) return new HelmOperationInProgressError(message, result);
  if (RELEASE_NOT_FOUND.test(text)) return new HelmReleaseNotFoundError(message, result);
  if (CHART_NOT_FOUND.test(text)) return new HelmChartNotFoundError(message, result);
  if (TIMED_OUT.test(text)) return new HelmTimeoutError(message, result);
  return new HelmCommandError(message, result);
}
