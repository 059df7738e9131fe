// Which commit a GitRepository points at, from `git ls-remote` alone (cheap: no objects fetched),
// with Flux's precedence — commit > name > tag > semver > branch > "master" — and revision formats
// (`main@sha1:<hex>`, `v1.2.3@sha1:<hex>`, `refs/heads/main@sha1:<hex>`, `sha1:<hex>`).
import { FlotillaError } from "../../util/errors.js";
import type { GitRepositoryRef } from "../../api/source/git-repository.js";
import { maxSatisfying } from "../semver.js";

export class RefNotFoundError extends FlotillaError {
  override name = "RefNotFoundError";
}

export interface ResolvedRef {
  /** The ref to fetch (e.g. refs/heads/main), or undefined to fetch by commit. */
  fetchRef?: string;
  commit: string;
  revision: string;
  /** Branch/tag/name refs can be checked with ls-remote alone; semver and commit always fetch (as Flux). */
  cheapCheck: boolean;
  /** The tag this commit was reached through (tag, semver, or a refs/tags/ name), for tag verification. */
  tag?: string;
}

/** Parses `git ls-remote` output into ref → commit, with annotated tags peeled to their commit. */
export function parseLsRemote(output: string): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of output.split("\n")) {
    const [sha, ref] = line.split("\t");
    if (!sha || !ref) continue;
    if (ref.endsWith("^{}")) refs.set(ref.slice(0, -3), sha);
    else if (!refs.has(ref)) refs.set(ref, sha);
  }
  return refs;
}

export function resolveRef(ref: GitRepositoryRef | undefined, refs: Map<string, string>): ResolvedRef {
  const r = ref ?? {};
  if (r.commit) {
    return {
      commit: r.commit,
      revision: r.branch ? `${r.branch}@sha1:${r.commit}` : `sha1:${r.commit}`,
      fetchRef: r.branch ? `refs/heads/${r.branch}` : undefined,
      cheapCheck: false,
    };
  }
  if (r.name) {
    const commit = refs.get(r.name);
    if (!commit) throw new RefNotFoundError(`unable to resolve ref '${r.name}' to a specific commit`);
    const tag = r.name.startsWith("refs/tags/") ? r.name.slice("refs/tags/".length) : undefined;
    return { commit, revision: `${r.name}@sha1:${commit}`, fetchRef: r.name, cheapCheck: true, tag };
  }
  if (r.tag) {
    const commit = refs.get(`refs/tags/${r.tag}`);
    if (!commit) throw new RefNotFoundError(`couldn't find remote ref "refs/tags/${r.tag}"`);
    return {
      commit,
      revision: `${r.tag}@sha1:${commit}`,
      fetchRef: `refs/tags/${r.tag}`,
      cheapCheck: true,
      tag: r.tag,
    };
  }
  if (r.semver) {
    const tags = [...refs.keys()].filter((k) => k.startsWith("refs/tags/")).map((k) => k.slice("refs/tags/".length));
    let tag: string | undefined;
    try {
      tag = maxSatisfying(tags, r.semver);
    } catch (err) {
      throw new RefNotFoundError(`semver parse error: ${(err as Error).message}`);
    }
    if (!tag) throw new RefNotFoundError(`no match found for semver: ${r.semver}`);
    const commit = refs.get(`refs/tags/${tag}`)!;
    return { commit, revision: `${tag}@sha1:${commit}`, fetchRef: `refs/tags/${tag}`, cheapCheck: false, tag };
  }
  const branch = r.branch ?? "master";
  const commit = refs.get(`refs/heads/${branch}`);
  if (!commit) throw new RefNotFoundError(`couldn't find remote ref "refs/heads/${branch}"`);
  return { commit, revision: `${branch}@sha1:${commit}`, fetchRef: `refs/heads/${branch}`, cheapCheck: true };
}
