// Errors of the resource manager. Each names the objects (Kind/namespace/name) and keeps the API's
// message (redacted of Secret values); a failed dry-run lists every failing object.
import { FlotillaError } from "../util/errors.js";
import type { ChangeSetEntry } from "./changeset.js";

export class ResourceManagerError extends FlotillaError {
  override name = "ResourceManagerError";
  constructor(
    message: string,
    /** What was applied before the failure (empty when nothing was). */
    readonly changeSet: ChangeSetEntry[] = [],
  ) {
    super(message);
  }
}

export interface ObjectFailure {
  subject: string;
  /** API status reason (Forbidden, Invalid, NotFound, ...), when the API gave one. */
  reason?: string;
  message: string;
}

const formatFailure = (f: ObjectFailure) =>
  `${f.subject} dry-run failed${f.reason ? ` (${f.reason})` : ""}: ${f.message}`;

/** Server-side dry-run rejected objects; nothing of this stage (or later) was applied. */
export class DryRunError extends ResourceManagerError {
  override name = "DryRunError";
  constructor(
    readonly failures: ObjectFailure[],
    changeSet: ChangeSetEntry[] = [],
  ) {
    super(failures.map(formatFailure).join("\n"), changeSet);
  }
}

export class ApplyError extends ResourceManagerError {
  override name = "ApplyError";
}

/** The objects did not become ready in time (or failed): lists each with its status and reason. */
export class HealthCheckError extends ResourceManagerError {
  override name = "HealthCheckError";
  constructor(
    message: string,
    readonly notReady: { subject: string; status: string; message: string }[],
  ) {
    super(message);
  }
}
