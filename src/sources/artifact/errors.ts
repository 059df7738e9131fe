// Errors of artifacts: one could not be written to storage (disk full, permissions), downloaded, its
// bytes do not match its digest, or its archive holds an entry that would land outside the directory
// it is unpacked into.
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
/** An absolute path or a `..` in an archive entry. */
export class UnsafeArchiveError extends ArtifactError {
  override name = "UnsafeArchiveError";
}
/** Writing an artifact into storage failed (e.g. no space left on device); nothing half-written is left. */
export class ArtifactStorageError extends ArtifactError {
  override name = "ArtifactStorageError";
}
