// What a Git forge input provider exports, as the operator's internal/gitprovider computes it (pure
// rules, no I/O): one result per branch, tag or open pull/merge request — `id` (adler32 of the branch or
// tag name; the request's number), `sha`, `branch`/`tag`, and for requests `title`, `author`, `labels`
// (GitLab adds `slug`) — with empty fields left out, defaultValues filling what a result lacks. The
// filter's include/exclude match the branch or tag name (a request's source branch), labels must all be
// on a request, limit (default 100, at most 10,000) caps the list; tags are sorted newest first (by
// semver when filter.semver is set, else reverse lexical). spec.skip.labels freezes a request that
// carries (or, with `!`, lacks) a label at what was last exported, and leaves out one never exported.
import { ReconcileFailure } from "../kit/failure.js";
import { filterTags, type InputFilter } from "./provider-filters.js";
import type { InputSet } from "./inputs.js";

export interface ForgeResult {
  id: string;
  sha: string;
  branch?: string;
  tag?: string;
  author?: string;
  title?: string;
  slug?: string;
  labels?: string[];
}

export const MAX_FORGE_RESULTS = 10_000;
export const MAX_FORGE_PAGES = 1000;
export const FORGE_PAGE_SIZE = 100;

/** gitProviderResultLimit: filter.limit or 100, refused above 10,000. */
export function forgeResultLimit(f: InputFilter): number {
  const limit = f.limit && f.limit > 0 ? f.limit : 100;
  if (limit > MAX_FORGE_RESULTS)
    throw new ReconcileFailure(
      "InvalidSpec",
      `spec.filter.limit: result limit ${limit} exceeds maximum of ${MAX_FORGE_RESULTS}`,
      { stalled: true },
    );
  return limit;
}

/** Result.ToMap: empty fields left out. */
export function resultMap(r: ForgeResult): InputSet {
  const m: InputSet = { id: r.id, sha: r.sha };
  for (const k of ["branch", "tag", "author", "title", "slug"] as const) if (r[k]) m[k] = r[k];
  if (r.labels?.length) m.labels = r.labels;
  return m;
}

export const withDefaults = (defaults: Record<string, unknown> | undefined, r: ForgeResult): InputSet => ({
  ...(defaults ?? {}),
  ...resultMap(r),
});

/** MatchLabels: every filter label on the request. */
export const matchLabels = (f: InputFilter, labels: string[]) => (f.labels ?? []).every((l) => labels.includes(l));

/** The tag selector: matching tags newest first up to the limit; a name seen twice keeps its last result. */
export function selectTags(tags: { name: string; result: ForgeResult }[], f: InputFilter): ForgeResult[] {
  const limit = forgeResultLimit(f);
  const last = new Map(tags.map((t) => [t.name, t.result]));
  return filterTags(
    tags.map((t) => t.name),
    { ...f, limit },
  ).map((name) => last.get(name)!);
}

const FIELDS = ["id", "sha", "branch", "tag", "author", "title", "slug", "labels"] as const;

/** restoreSkippedGitProviderResults. */
export function restoreSkipped(results: ForgeResult[], skipLabels: string[], previous: InputSet[]): ForgeResult[] {
  if (!skipLabels.length) return results;
  const out: ForgeResult[] = [];
  for (const r of results) {
    const labels = r.labels ?? [];
    const skipped = skipLabels.some((l) => (l.startsWith("!") ? !labels.includes(l.slice(1)) : labels.includes(l)));
    if (!skipped) {
      out.push(r);
      continue;
    }
    const before = previous.find((p) => p.id === r.id);
    if (!before) continue;
    // json.Unmarshal over the result: the exported fields present replace the fresh ones.
    const restored = { ...r } as Record<string, unknown>;
    for (const k of FIELDS) if (before[k] !== undefined && before[k] !== null) restored[k] = before[k];
    out.push(restored as unknown as ForgeResult);
  }
  return out;
}

/** The operator's guard against a forge paginating forever or in circles. */
export class PaginationGuard {
  private readonly seen = new Set<number>();
  constructor(private readonly operation: string) {}
  visit(page: number): void {
    if (this.seen.size >= MAX_FORGE_PAGES)
      throw new Error(`${this.operation} pagination exceeds maximum of ${MAX_FORGE_PAGES} pages`);
    if (this.seen.has(page)) throw new Error(`${this.operation} pagination returned a repeated page`);
    this.seen.add(page);
  }
}

/** The page number of the Link header's rel="next" (GitHub, Gitea), or 0. */
export function nextPageOfLink(link: string | null): number {
  for (const part of (link ?? "").split(",")) {
    const [target, ...params] = part.split(";");
    if (!params.some((p) => p.trim() === 'rel="next"')) continue;
    const href = target!.trim().replace(/^<|>$/g, "");
    try {
      return Number(new URL(href, "http://x").searchParams.get("page") ?? 0) || 0;
    } catch {
      return 0;
    }
  }
  return 0;
}

/** gitlabSlugify: lower case, [^a-z0-9-] to '-', 63 bytes, trimmed of '-'. */
export function gitlabSlug(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9-]/gu, "-")
    .slice(0, 63)
    .replace(/^-+|-+$/g, "");
}
