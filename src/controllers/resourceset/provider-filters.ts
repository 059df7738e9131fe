// A ResourceSetInputProvider's spec.filter as the operator's internal/filtering applies it to tags (OCI, forges):
// include/exclude regular expressions (the last of includeBranch/includeTag/includeEnvironment set, likewise
// for exclude, as makeFilters reads them), then either the semver constraint (matching tags, newest first) or
// reverse lexical order, then the limit (default 100). Patterns are JavaScript regular expressions, which
// agree with Go's RE2 for the character classes, anchors and alternations these filters use.
import type { ResourceSetInputProvider } from "../../api/operator/resourceset-input-provider.js";
import { allSatisfying } from "../../sources/semver.js";
import { ReconcileFailure } from "../kit/failure.js";

export const DEFAULT_FILTER_LIMIT = 100;

export interface InputFilter {
  includeBranch?: string;
  excludeBranch?: string;
  includeTag?: string;
  excludeTag?: string;
  includeEnvironment?: string;
  excludeEnvironment?: string;
  labels?: string[];
  limit?: number;
  semver?: string;
}

export const filterOf = (p: ResourceSetInputProvider) => (p.spec.filter ?? {}) as InputFilter;
export const limitOf = (f: InputFilter) => (f.limit && f.limit > 0 ? f.limit : DEFAULT_FILTER_LIMIT);

const invalid = (message: string) => new ReconcileFailure("InvalidSpec", message, { stalled: true });

function compile(f: InputFilter, fields: (keyof InputFilter)[]): RegExp | undefined {
  let rx: RegExp | undefined;
  for (const field of fields) {
    const pattern = f[field] as string | undefined;
    if (!pattern) continue;
    try {
      rx = new RegExp(pattern, "u");
    } catch (err) {
      throw invalid(`invalid ${field} regex: ${(err as Error).message}`);
    }
  }
  return rx;
}

/** makeFilters' include and exclude: the last of the Branch/Tag/Environment patterns set wins. */
export const compiledFilter = (f: InputFilter) => ({
  include: compile(f, ["includeBranch", "includeTag", "includeEnvironment"]),
  exclude: compile(f, ["excludeBranch", "excludeTag", "excludeEnvironment"]),
});

export function filterTags(tags: string[], f: InputFilter): string[] {
  const { include, exclude } = compiledFilter(f);
  let out = tags.filter((t) => (!include || include.test(t)) && !(exclude && exclude.test(t)));
  if (f.semver) {
    try {
      out = allSatisfying(out, f.semver);
    } catch (err) {
      throw invalid(`invalid semver expression: ${(err as Error).message}`);
    }
  } else out = [...out].sort().reverse();
  return out.slice(0, limitOf(f));
}
