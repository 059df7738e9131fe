// How big an artifact may be, unpacked: a total size and a number of files. They bite where an
// artifact is made (a GitRepository refuses a checkout over them, naming the limit, on the object its
// owner reads) and wherever one is unpacked (a tar bomb from a chart repository or another replica
// stops at the first header past a limit). Decision 0015.
import { statSync } from "node:fs";
import { join } from "node:path";
import { ArtifactLimitError } from "./errors.js";

export interface ArtifactLimits {
  /** Bytes of all files together, unpacked (--artifact-max-size); a single file can be no larger. */
  maxSize: number;
  /** Entries: files, directories and links (--artifact-max-files). */
  maxFiles: number;
}

export const DEFAULT_ARTIFACT_LIMITS: ArtifactLimits = { maxSize: 1024 ** 3, maxFiles: 100_000 };

const UNITS: [string, number][] = [
  ["GiB", 1024 ** 3],
  ["MiB", 1024 ** 2],
  ["KiB", 1024],
];

/** 1073741824 → "1 GiB", 1536 → "1.5 KiB", 100 → "100 bytes". */
export function formatBytes(n: number): string {
  for (const [unit, size] of UNITS) if (n >= size) return `${+(n / size).toFixed(1)} ${unit}`;
  return `${n} bytes`;
}

export const tooManyFiles = (limits: ArtifactLimits, what: string) =>
  new ArtifactLimitError(
    `${what} holds more than ${limits.maxFiles} files, the limit set by --artifact-max-files; ` +
      `split the repository, exclude files with .sourceignore or spec.ignore, or raise the limit`,
  );

export const tooLarge = (limits: ArtifactLimits, what: string, file?: string) =>
  new ArtifactLimitError(
    `${file ? `${what}: file '${file}' alone` : what} is larger than ${formatBytes(limits.maxSize)} unpacked, the limit set by --artifact-max-size; ` +
      `exclude large files with .sourceignore or spec.ignore, or raise the limit`,
  );

/** Throws ArtifactLimitError when `files` (relative to `root`) break the limits: checked before archiving. */
export function checkArtifactFiles(root: string, files: string[], limits: ArtifactLimits, what: string): void {
  if (files.length > limits.maxFiles) throw tooManyFiles(limits, what);
  let total = 0;
  for (const f of files) {
    const size = statSync(join(root, f)).size;
    if (size > limits.maxSize) throw tooLarge(limits, what, f);
    total += size;
    if (total > limits.maxSize) throw tooLarge(limits, what);
  }
}
