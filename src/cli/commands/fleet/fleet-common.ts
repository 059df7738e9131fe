// What the `flotilla fleet` procedures share: the working tree flag, printing what changed, and the
// live cluster flags for the parts that must not go through Git (a kubeconfig Secret, the bootstrap).
import { Command, Option } from "commander";
import { existsSync } from "node:fs";
import { WorkingTree } from "../../../fleet/repository/written-files.js";
import { addManagementFlags, type ClusterFlags, clusterOf } from "../../cluster-flags.js";
import { UsageError } from "../../errors.js";
import { success } from "../../output.js";

export interface FleetFlags {
  repo: string;
  env: string;
  kubeconfig?: string;
  context?: string;
}

/** The management cluster, for the parts that are not in Git (the environment is its namespace). */
export const managementOf = (f: FleetFlags) =>
  clusterOf({ kubeconfig: f.kubeconfig, context: f.context, namespace: f.env, timeout: "5m" } satisfies ClusterFlags);

const MARK = { created: "✚", updated: "✎", removed: "✗", unchanged: "✔" } as const;

/** A procedure's command; `withEnv: false` for init-env, which names the environment as its argument. */
export function fleetVerb(name: string, description: string, example: string, withEnv = true): Command {
  const cmd = new Command(name)
    .description(description)
    .addOption(new Option("--repo <dir>", "the fleet repository's working tree").default("."));
  if (withEnv)
    cmd.addOption(
      new Option(
        "--env <name>",
        "the environment (its directory and its namespace on the management cluster)",
      ).makeOptionMandatory(),
    );
  cmd.addHelpText("after", `\nExamples:\n  ${example}\n`);
  return addManagementFlags(cmd, "for the parts not in Git");
}

export function treeOf(f: FleetFlags): WorkingTree {
  if (!existsSync(f.repo)) throw new UsageError(`--repo ${f.repo}: no such directory`);
  return new WorkingTree(f.repo);
}

/** Saves the tree's changes and prints each file once (what the user commits). */
export function finish(tree: WorkingTree, next: string): void {
  tree.save();
  const seen = new Set<string>();
  for (const c of tree.changes.slice().reverse()) {
    if (seen.has(c.path)) continue;
    seen.add(c.path);
    process.stderr.write(`${MARK[c.action]} ${c.action} ${c.path}\n`);
  }
  const changed = tree.changes.some((c) => c.action !== "unchanged");
  success(changed ? next : "nothing to change: the repository already says so");
}
