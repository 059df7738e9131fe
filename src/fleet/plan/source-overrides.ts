// The sources a plan replaces: `--source Kind/ns/name=<dir>` (a local checkout standing in for that
// source's artifact) or `--revision <ref>` (the GitRepository's own URL checked out at another ref, with
// its own credentials). Every other source is read as it is (its current artifact).
import { existsSync, mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { GitRepository } from "../../api/source/git-repository.js";
import { checkoutRemote, openRemote } from "../../controllers/gitrepository/remote.js";
import type { KubeClient } from "../../kube/client.js";
import { sandboxedGit } from "../../sources/git/git-cli.js";
import { parseLsRemote, resolveRef } from "../../sources/git/refs.js";
import { PlanInputError } from "./errors.js";
import { keyOf } from "./management-state.js";

const SOURCE_KINDS = ["GitRepository", "OCIRepository", "Bucket"];

export interface SourceFlag {
  kind: string;
  namespace: string;
  name: string;
  dir?: string;
}

/** `Kind/namespace/name=<dir>`, or without `=<dir>` (with --revision). */
export function parseSourceFlag(flag: string): SourceFlag {
  const [ref, ...rest] = flag.split("=");
  const dir = rest.join("=");
  const parts = (ref ?? "").split("/");
  if (parts.length !== 3 || parts.some((p) => !p))
    throw new PlanInputError(
      `--source ${flag}: expected <Kind>/<namespace>/<name>=<dir>, e.g. GitRepository/flux-system/platform=.`,
    );
  const [kind, namespace, name] = parts as [string, string, string];
  if (!SOURCE_KINDS.includes(kind))
    throw new PlanInputError(
      `--source ${flag}: kind ${kind} is not a source whose files a plan can replace (${SOURCE_KINDS.join(", ")})`,
    );
  if (rest.length && !dir) throw new PlanInputError(`--source ${flag}: the directory after '=' is empty`);
  if (dir && (!existsSync(dir) || !statSync(dir).isDirectory()))
    throw new PlanInputError(`--source ${flag}: ${dir} is not a directory`);
  return { kind, namespace, name, ...(dir ? { dir: resolve(dir) } : {}) };
}

/** The ref as a GitRepository ref: a full commit, a full ref name, else a branch, else a tag (as `git checkout`). */
function refFor(revision: string, refs: Map<string, string>) {
  if (/^[0-9a-f]{40}$/.test(revision)) return { commit: revision };
  if (revision.startsWith("refs/")) return { name: revision };
  if (refs.has(`refs/heads/${revision}`)) return { name: `refs/heads/${revision}` };
  if (refs.has(`refs/tags/${revision}`)) return { name: `refs/tags/${revision}` };
  return { name: revision };
}

/** Checks the GitRepository's URL out at `revision` into `work`; returns the directory and the commit. */
export async function checkoutRevision(
  client: KubeClient,
  repo: GitRepository,
  revision: string | undefined,
  work: string,
): Promise<{ dir: string; commit: string }> {
  const id = keyOf("GitRepository", repo.metadata.namespace, repo.metadata.name);
  const home = join(work, "git-home");
  mkdirSync(home, { recursive: true });
  try {
    const remote = await openRemote(client, repo, home);
    const refs = parseLsRemote(await sandboxedGit(["ls-remote", remote.url], remote.git));
    // Without a revision, the repository's own ref (branch, tag, semver range, name or commit), as Flux resolves it.
    const resolved = resolveRef(revision === undefined ? repo.spec.ref : refFor(revision, refs), refs);
    const dir = join(work, id.replace(/[^A-Za-z0-9.-]/g, "_"));
    mkdirSync(dir, { recursive: true });
    const { commit } = await checkoutRemote(remote, resolved, dir, {
      recurseSubmodules: repo.spec.recurseSubmodules,
    });
    return { dir, commit };
  } catch (err) {
    throw new PlanInputError(
      `${revision === undefined ? "checking out" : `--revision ${revision} of`} ${id}: ${(err as Error).message}`,
    );
  }
}
