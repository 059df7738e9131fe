// Which sources a plan replaces, and with what: the `--source Kind/ns/name=<dir>` checkouts as given,
// then `--revision <ref>` checked out for the GitRepositories named without a directory (or, when none is
// named, every GitRepository of the management cluster: one without that ref is left out, and said).
// Domain rules of the plan, below the CLI, so every front end asks the same questions the same way.
import type { GitRepository } from "../../api/source/git-repository.js";
import type { KubeClient } from "../../kube/client.js";
import { PlanInputError } from "./errors.js";
import type { ManagementState } from "./management-state.js";
import { checkoutRevision, parseSourceFlag } from "./source-overrides.js";

export interface ReplacedSources {
  /** `Kind/namespace/name` → the directory standing in for its artifact. */
  overrides: Map<string, string>;
  /** What the plan says it replaced, one line per source. */
  shown: string[];
  /** Repositories left as they are (without the --revision ref), said in the plan's caveats. */
  notes: string[];
}

/**
 * The replaced sources of `--source` flags and `--revision`. `client` reads the GitRepositories'
 * credentials for --revision; without it (offline) --revision is refused.
 */
export async function replacedSources(
  f: { source: string[]; revision?: string },
  state: ManagementState,
  work: string,
  client: KubeClient | undefined,
): Promise<ReplacedSources> {
  const parsed = f.source.map(parseSourceFlag);
  const overrides = new Map<string, string>();
  const shown: string[] = [];
  const notes: string[] = [];
  for (const s of parsed.filter((p) => p.dir)) {
    overrides.set(`${s.kind}/${s.namespace}/${s.name}`, s.dir!);
    shown.push(`${s.kind}/${s.namespace}/${s.name}=${s.dir}`);
  }
  const atRevision = parsed.filter((p) => !p.dir);
  if (atRevision.length && !f.revision)
    throw new PlanInputError(
      `--source ${atRevision[0]!.kind}/${atRevision[0]!.namespace}/${atRevision[0]!.name} has no directory: add =<dir>, or pass --revision`,
    );
  if (f.revision) {
    if (!client)
      throw new PlanInputError(
        "--revision checks the repository out with its credentials from the cluster: use --source Kind/ns/name=<dir> with --offline",
      );
    const named = atRevision.length
      ? atRevision
      : state.gitRepositories.map((g) => ({
          kind: "GitRepository",
          namespace: g.metadata.namespace!,
          name: g.metadata.name,
        }));
    for (const s of named) {
      const repo = state.gitRepositories.find(
        (g) => g.metadata.namespace === s.namespace && g.metadata.name === s.name,
      );
      if (s.kind !== "GitRepository" || !repo)
        throw new PlanInputError(`--revision: no GitRepository ${s.namespace}/${s.name} in the management cluster`);
      try {
        const { dir, commit } = await checkoutRevision(client, repo as GitRepository, f.revision, work);
        overrides.set(`GitRepository/${s.namespace}/${s.name}`, dir);
        shown.push(`GitRepository/${s.namespace}/${s.name}@${f.revision} (${commit.slice(0, 12)})`);
      } catch (err) {
        // Named: its failure is the plan's. Every repository: one without that ref is left out, and said.
        if (atRevision.length) throw err;
        notes.push(`GitRepository ${s.namespace}/${s.name} left as it is: ${(err as Error).message}`);
      }
    }
  }
  if (!overrides.size && notes.length) throw new PlanInputError(`--revision ${f.revision}: ${notes.join("; ")}`);
  if (!overrides.size)
    throw new PlanInputError("nothing to plan: pass --source Kind/ns/name=<dir> (repeatable) or --revision <git ref>");
  return { overrides, shown, notes };
}
