// `flotilla plan`: what a change would do to every cluster before it merges. Sources are replaced by a
// local checkout (`--source Kind/ns/name=<dir>`) or another ref of their repository (`--revision`);
// every app reading them — through Kustomizations that create Kustomizations and sources, and fleet
// objects fanned out per cluster — is rendered and diffed against its own cluster with a server-side
// dry-run as its controller's identity. Nothing is written. `--offline` compares with a snapshot
// (`--snapshot FILE`, written online) instead of the clusters. Exit 0 no change, 1 changes, 2 errors.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { Command, Option } from "commander";
import type { GitRepository } from "../../api/source/git-repository.js";
import type { KubeClient } from "../../kube/client.js";
import type { PlanBackend } from "../../fleet/plan/backend.js";
import { readManagementState, type ManagementState } from "../../fleet/plan/management-state.js";
import { offlineBackend } from "../../fleet/plan/offline-backend.js";
import { onlineBackend } from "../../fleet/plan/online-backend.js";
import { readSnapshot, takeSnapshot } from "../../fleet/plan/snapshot.js";
import { checkoutRevision, parseSourceFlag } from "../../fleet/plan/source-overrides.js";
import { exitCodeOf, type FleetPlan } from "../../fleet/plan/types.js";
import { planFleet } from "../../fleet/plan/walk.js";
import { clustersBySecret } from "../../fleet/status/fleet-view.js";
import { makeWorkDir } from "../../util/work-dir.js";
import { clusterOf } from "../cluster-flags.js";
import { UsageError } from "../errors.js";
import { failure, success } from "../output.js";
import { collectSlice } from "./create/flux-refs.js";
import { planMarkdown, planText } from "./plan/plan-text.js";

interface Flags {
  source: string[];
  revision?: string;
  namespace?: string;
  kubeconfig?: string;
  context?: string;
  defaultServiceAccount?: string;
  output: string;
  snapshot?: string;
  offline?: boolean;
}

const OFFLINE_CAVEATS = [
  "offline: compared with the snapshot, not the clusters — changes made since it was taken, server-side defaults, admission and RBAC (Forbidden) are not known, nor a field a HelmRelease's chart stops rendering",
  "offline: apps whose values come from Secrets, and sources not replaced by --source, cannot be rendered; they are listed as errors",
];

async function overridesOf(f: Flags, state: ManagementState, work: string, client: KubeClient | undefined) {
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
    throw new UsageError(
      `--source ${atRevision[0]!.kind}/${atRevision[0]!.namespace}/${atRevision[0]!.name} has no directory: add =<dir>, or pass --revision`,
    );
  if (f.revision) {
    if (!client)
      throw new UsageError(
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
        throw new UsageError(`--revision: no GitRepository ${s.namespace}/${s.name} in the management cluster`);
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
  if (!overrides.size && notes.length) throw new UsageError(`--revision ${f.revision}: ${notes.join("; ")}`);
  if (!overrides.size)
    throw new UsageError("nothing to plan: pass --source Kind/ns/name=<dir> (repeatable) or --revision <git ref>");
  return { overrides, shown, notes };
}

async function run(f: Flags): Promise<number> {
  if (!["text", "markdown", "json"].includes(f.output))
    throw new UsageError(`-o ${f.output}: expected text, markdown or json`);
  if (f.offline && !f.snapshot)
    throw new UsageError(
      "--offline compares with a snapshot: pass --snapshot FILE (written by `flotilla plan --snapshot FILE` with cluster access)",
    );
  const work = makeWorkDir("flotilla-plan-");
  try {
    let state: ManagementState;
    let backend: PlanBackend;
    let client: KubeClient | undefined;
    if (f.offline) {
      const snapshot = readSnapshot(readFileSync(f.snapshot!, "utf8"), f.snapshot!);
      state = snapshot.management;
      backend = offlineBackend(snapshot, work);
    } else {
      const management = clusterOf({ ...f, namespace: f.namespace ?? "", timeout: "5m" });
      client = management.client;
      state = await readManagementState(management, f.namespace);
      backend = onlineBackend(management, { work, defaultServiceAccount: f.defaultServiceAccount });
      if (f.snapshot) {
        writeFileSync(f.snapshot, JSON.stringify(await takeSnapshot(management, state, f.defaultServiceAccount)));
        success(
          `snapshot of ${state.kustomizations.length} Kustomizations and ${state.helmReleases.length} HelmReleases written to ${f.snapshot}`,
        );
        if (!f.source.length && !f.revision) return 0;
      }
    }
    const { overrides, shown, notes } = await overridesOf(f, state, work, client);
    const apps = await planFleet({ state, backend, overrides, bySecret: clustersBySecret(state.clusters), work });
    const plan: FleetPlan = {
      mode: backend.mode,
      sources: shown,
      apps,
      caveats: [...(f.offline ? OFFLINE_CAVEATS : []), ...notes],
    };
    process.stdout.write(
      f.output === "json"
        ? `${JSON.stringify(plan, null, 2)}\n`
        : f.output === "markdown"
          ? planMarkdown(plan)
          : planText(plan),
    );
    return exitCodeOf(plan);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function planCommand(): Command {
  return new Command("plan")
    .description(
      "Show what a change would do to every cluster before it merges: every app reading the replaced sources, rendered and diffed against its cluster (exit 0: no change, 1: changes, 2: errors)",
    )
    .addOption(
      new Option("--source <Kind/ns/name=dir>", "a local checkout replacing that source's artifact (repeatable)")
        .argParser(collectSlice)
        .default([]),
    )
    .option(
      "--revision <ref>",
      "check the GitRepositories (those named by --source without =dir, else all) out at this branch, tag or commit",
    )
    .option("-n, --namespace <name>", "only the objects of this namespace (default: every namespace)")
    .option("--kubeconfig <path>", "path to the kubeconfig file of the management cluster")
    .option("--context <name>", "the kubeconfig context to use")
    .option(
      "--default-service-account <name>",
      "the service account the controllers impersonate for apps that name none (their --default-service-account)",
    )
    .addOption(new Option("-o, --output <format>", "text, markdown (a pull-request comment) or json").default("text"))
    .option(
      "--snapshot <file>",
      "online: write the last applied state of every app to FILE; with --offline: compare with it",
    )
    .option("--offline", "no cluster access: render, and compare with --snapshot FILE")
    .addHelpText(
      "after",
      `\nExamples:\n  flotilla plan --source GitRepository/flux-system/platform=.\n  flotilla plan --revision my-branch -o markdown > plan.md\n  flotilla plan --snapshot fleet.json          # with cluster access, e.g. nightly\n  flotilla plan --offline --snapshot fleet.json --source GitRepository/flux-system/platform=.`,
    )
    .action(async (f: Flags) => {
      try {
        process.exitCode = await run(f);
      } catch (err) {
        failure((err as Error).message);
        process.exitCode = 2;
      }
    });
}
