// The one way an artifact's storage path is made: `<kind>/<namespace>/<name>/<file>`, four single
// path segments, none of them hidden or special. Chart names, versions and object names come from
// tenants (a spec, a repository index, a Chart.yaml): a chart called `../../../.consumer-cache/x`
// must never become a path (issue 28), so every segment is checked here and nowhere else.
import { InvalidArtifactPathError } from "./errors.js";

/** Directories of the kinds that store artifacts; nothing else under the storage root is an artifact. */
export const ARTIFACT_KIND_DIRS = ["gitrepository", "helmrepository", "helmchart", "ocirepository", "bucket"];

/** Why `segment` cannot be one path segment of an artifact path; undefined when it can. */
export function segmentProblem(segment: string): string | undefined {
  if (!segment) return "it is empty";
  if (segment === "." || segment === "..") return `'${segment}' is not a name`;
  if (/[/\\]/.test(segment)) return "it holds a path separator";
  if (segment.startsWith(".")) return "it starts with a dot";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(segment)) return "it holds a control character";
  if (segment.length > 253) return "it is longer than 253 characters";
  return undefined;
}

/** Throws InvalidArtifactPathError naming the first segment that cannot be one, and why. */
function checkSegments(parts: [string, string][]): string {
  for (const [what, segment] of parts) {
    const problem = segmentProblem(segment);
    if (problem) throw new InvalidArtifactPathError(`invalid artifact ${what} '${segment}': ${problem}`);
  }
  return parts.map(([, s]) => s).join("/");
}

/** `<kind>/<namespace>/<name>`: the directory of one object's artifacts. */
export function artifactDir(kind: string, namespace: string, name: string): string {
  return checkSegments([
    ["kind", kind.toLowerCase()],
    ["namespace", namespace],
    ["name", name],
  ]);
}

/** `<kind>/<namespace>/<name>/<file>` or InvalidArtifactPathError naming the segment and why. */
export function artifactPath(kind: string, namespace: string, name: string, file: string): string {
  return `${artifactDir(kind, namespace, name)}/${checkSegments([["file name", file]])}`;
}

const plainSegments = (relPath: string, count: number) => {
  const parts = relPath.split("/");
  return parts.length === count && parts.every((p) => segmentProblem(p) === undefined) ? parts : undefined;
};

/** True for a relative path of exactly the shape artifactDir makes. */
export const isArtifactDir = (relPath: string): boolean => plainSegments(relPath, 3) !== undefined;

/** True for a relative path of exactly the shape artifactPath makes, under a kind's directory. */
export function isArtifactPath(relPath: string): boolean {
  const parts = plainSegments(relPath, 4);
  return !!parts && ARTIFACT_KIND_DIRS.includes(parts[0]!) && !parts[3]!.includes(".tmp-");
}
