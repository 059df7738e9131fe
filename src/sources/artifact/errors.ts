// Errors of artifacts: one could not be written to storage (disk full, permissions), downloaded, its
// bytes do not match its digest, its archive holds an entry that would land outside the directory it is
// unpacked into, or it is larger than the controller accepts.
import { FlotillaError } from "../../util/errors.js";

export class ArtifactError extends FlotillaError {
  override name = "ArtifactError";
}
/** The artifact server answered with an error status, or could not be reached. */
export class ArtifactDownloadError extends ArtifactError {
  override name = "ArtifactDownloadError";
}
export class ArtifactVerificationError extends ArtifactError {
  override name = "ArtifactVerificationError";
}
/** An entry that could land outside the directory (absolute path, `..`, a link leading out) or a hard link, device or fifo. */
export class UnsafeArchiveError extends ArtifactError {
  override name = "UnsafeArchiveError";
}
/** An artifact larger, or with more files, than the controller's --artifact-max-size / --artifact-max-files. */
export class ArtifactLimitError extends ArtifactError {
  override name = "ArtifactLimitError";
}

/** Writing an artifact into storage failed (e.g. no space left on device); nothing half-written is left. */
export class ArtifactStorageError extends ArtifactError {
  override name = "ArtifactStorageError";
}

/** A path built from a chart name, version or object name that is not one plain path segment. */
export class InvalidArtifactPathError extends ArtifactError {
  override name = "InvalidArtifactPathError";
}
