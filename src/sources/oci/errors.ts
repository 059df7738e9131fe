// Errors of OCI registries. Each names the registry (and repository or reference) so a user can act on
// it; none ever carries a password or token: messages are built from names, status codes and the
// registry's own error codes, never from request headers.
import { FlotillaError } from "../../util/errors.js";

export class OciError extends FlotillaError {
  override name = "OciError";
}

/** The registry answered 401/403: credentials missing, wrong, or without access to the repository. */
export class OciAuthError extends OciError {
  override name = "OciAuthError";
}

/** An unknown repository, tag or digest. For a missing tag, `existingTags` holds the tags that exist (newest first). */
export class OciNotFoundError extends OciError {
  override name = "OciNotFoundError";
  constructor(
    message: string,
    readonly existingTags?: string[],
  ) {
    super(message);
  }
}

/** Connection refused, DNS failure, TLS failure or a timeout: the registry could not be talked to. */
export class OciUnreachableError extends OciError {
  override name = "OciUnreachableError";
}

/** A manifest or blob larger than the caller's limit (named in the message). */
export class OciTooLargeError extends OciError {
  override name = "OciTooLargeError";
}

/** Bytes that do not hash to the digest they were asked for or announced with: refused, never used. */
export class OciDigestMismatchError extends OciError {
  override name = "OciDigestMismatchError";
}

/** An answer that is not what the OCI distribution spec says (bad JSON, an image index where a manifest is needed). */
export class OciProtocolError extends OciError {
  override name = "OciProtocolError";
}
