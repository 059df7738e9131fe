// What a chart's name and version may be, as Helm's Metadata.Validate says (a name is a base name,
// not a path; a version is semver as Masterminds parses it), and the one file name a chart is
// stored under. Names and versions come from tenants' specs, indexes and Chart.yaml files, and
// become storage paths: anything else is refused before a path is made (issue 28).
import { segmentProblem } from "../artifact/artifact-path.js";

// Masterminds/semver's loose form (v prefix, missing minor/patch), which Helm accepts.
const SEMVER =
  /^v?[0-9]+(\.[0-9]+)?(\.[0-9]+)?(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

/** Why `name` is not a chart name (Helm: `chart.metadata.name "<name>" is invalid`); undefined when it is. */
export function chartNameProblem(name: string): string | undefined {
  const problem = segmentProblem(name);
  return problem && `chart name '${name}' is invalid: ${problem}; a chart name is a name, not a path`;
}

/** Why `version` is not a chart version; undefined when it is. */
export function chartVersionProblem(version: string): string | undefined {
  return SEMVER.test(version) ? undefined : `chart version '${version}' is invalid: it is not a semantic version`;
}

/** `<name>-<version>.tgz`, as helm package names it, for a valid name and version only. */
export function chartFileName(name: string, version: string): string {
  const problem = chartNameProblem(name) ?? chartVersionProblem(version);
  if (problem) throw new Error(problem);
  return `${name}-${version}.tgz`;
}
