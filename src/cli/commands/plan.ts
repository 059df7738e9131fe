// `flotilla plan`: what a change would do to every cluster before it merges. Sources are replaced by a
// local checkout (`--source Kind/ns/name=<dir>`) or another ref of their repository (`--revision`);
// every app reading them — through Kustomizations that create Kustomizations and sources, and fleet
// objects fanned out per cluster — is rendered and diffed against its own cluster with a server-side
// dry-run as its controller's identity. Nothing is written. `--offline` compares with a snapshot
// (`--snapshot FILE`, written online) instead of the clusters. Exit 0 no change, 1 changes, 2 errors.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { Command, Option } from "commander";
import type { KubeClient } from "../../kube/client.js";
import type { PlanBackend } from "../../fleet/plan/backend.js";
import { readManagementState, type ManagementState } from "../../fleet/plan/management-state.js";
import { offlineBackend } from "../../fleet/plan/offline-backend.js";
import { onlineBackend } from "../../fleet/plan/online-backend.js";
import { readSnapshot, takeSnapshot } from "../../fleet/plan/snapshot.js";
import { replacedSources } from "../../fleet/plan/replaced-sources.js";
import { exitCodeOf, type FleetPlan } from "../../fleet/plan/types.js";
import { planFleet } from "../../fleet/plan/walk.js";
import { clustersBySecret } from "../../fleet/status/fleet-view.js";
import { makeWorkDir } from "../../util/work-dir.js";
import { addManagementFlags, clusterOf } from "../cluster-flags.js";
import { ExitError, UsageError } from "../errors.js";
import { success } from "../output.js";
import { failsWith } from "../runner.js";
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

/** The --snapshot file read or written, its failure (no such file, no permission) said as Node says it. */
function fileSays<T>(io: () => T): T {
  try {
    return io();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
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
      const snapshot = readSnapshot(
        fileSays(() => readFileSync(f.snapshot!, "utf8")),
        f.snapshot!,
      );
      state = snapshot.management;
      backend = offlineBackend(snapshot, work);
    } else {
      const management = clusterOf({ ...f, namespace: f.namespace ?? "", timeout: "5m" });
      client = management.client;
      state = await readManagementState(management, f.namespace);
      backend = onlineBackend(management, { work, defaultServiceAccount: f.defaultServiceAccount });
      if (f.snapshot) {
        const taken = JSON.stringify(await takeSnapshot(management, state, f.defaultServiceAccount));
        fileSays(() => writeFileSync(f.snapshot!, taken));
        success(
          `snapshot of ${state.kustomizations.length} Kustomizations and ${state.helmReleases.length} HelmReleases written to ${f.snapshot}`,
        );
        if (!f.source.length && !f.revision) return 0;
      }
    }
    const { overrides, shown, notes } = await replacedSources(f, state, work, client);
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
  const cmd = new Command("plan")
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
    .option("-n, --namespace <name>", "only the objects of this namespace (default: every namespace)");
  addManagementFlags(cmd)
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
      const code = await run(f);
      if (code) throw new ExitError(code);
    });
  // Exit 1 means "changes": a failure, a bug included, is 2.
  return failsWith(cmd, 2);
}
