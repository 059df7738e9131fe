// Hostile tenant: GitRepositories pointed at a git server that accepts and never answers, with a huge
// spec.timeout, to hold every git slot — or every worker — of the controller (decision 0030). A bystander
// tenant's new commit still becomes Ready while the attack stalls; the attacker's git runs stop at
// --max-object-timeout with the cap named in their message, and what git started for them
// (git-remote-http) stops with it: nothing of the attacker is left orphaned.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitRepository, gitRepositoryCrd } from "../../src/api/source/git-repository.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import { isAlive, type ProcessEntry, processesMentioning, processTable } from "../support/process-table.js";
import { type StallingServer, startStallingServer } from "../support/stalling-server.js";

const cluster = planeCluster("management");
/** More than the 8 git slots, so the attacker alone could fill them all. */
const ATTACKERS = 10;
let git: GitHttpServer;
let stall: StallingServer;

const path = (ns: string, name = "") =>
  `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories${name ? `/${name}` : ""}`;

/**
 * The revision of the artifact `storagePath`'s controller stored: on a shared fleet another test's
 * controller may reconcile every namespace, so only a file in our own storage proves ours did.
 */
async function revisionOf(ns: string, name: string, storagePath: string) {
  const artifact = (await cluster.client.get<GitRepository>(path(ns, name))).status?.artifact;
  return artifact && existsSync(join(storagePath, artifact.path)) ? artifact.revision : undefined;
}

/** The attacker's `git ls-remote` runs right now under `controller` (one per slot it holds). */
function attackerGits(ns: string, controller: number) {
  const table = new Map(processTable().map((p) => [p.pid, p]));
  return processesMentioning(`${stall.url}/${ns}/`).filter(
    (p) => p.argv.includes("ls-remote") && descends(p, controller, table),
  );
}

/** Whether `p` runs under `ancestor` (as its git, git's remote-http wrapper, the helper do). */
function descends(p: ProcessEntry, ancestor: number, table: Map<number, ProcessEntry>): boolean {
  for (let at: ProcessEntry | undefined = p, depth = 0; at && depth < 8; at = table.get(at.ppid), depth++)
    if (at.ppid === ancestor) return true;
  return false;
}

/** Whether `p` still runs under a node process (a controller), not re-parented to init as an orphan. */
function underController(p: ProcessEntry, table: Map<number, ProcessEntry>): boolean {
  for (let at = table.get(p.ppid), depth = 0; at && depth < 8; at = table.get(at.ppid), depth++)
    if (/(^|\/)node$/.test(at.argv[0]!)) return true;
  return false;
}

/** What runs for `attacker` under `controller` now: git, the remote-http wrapper, git-remote-http. */
function attackerProcesses(attacker: string, controller: number): ProcessEntry[] {
  const table = new Map(processTable().map((p) => [p.pid, p]));
  return processesMentioning(`${stall.url}/${attacker}/`).filter((p) => descends(p, controller, table));
}

interface Tenants {
  controller: ControllerProcess;
  attacker: string;
  bystander: string;
  /** Makes a commit on the bystander's repository, asks for a reconcile, waits for its artifact. */
  bystanderCommit(content: string): Promise<void>;
  /** The attacker's stuck `git ls-remote` runs under this controller. */
  gits(): ProcessEntry[];
}

/** A controller with these flags, a bystander Ready at a first commit, then the attacker's repositories. */
async function tenants(prefix: string, flags: string[]): Promise<Tenants> {
  const attacker = await testNamespace(cluster.client, `${prefix}-attacker`);
  const bystander = await testNamespace(cluster.client, `${prefix}-bystander`);
  const storagePath = makeWorkDir("flotilla-fair-");
  const controller = startController({ namespace: bystander, shard: attacker, storagePath, extraArgs: flags });
  // The CRD first, and served, before any GitRepository: the controller's --install-crds races them on a
  // fresh fleet where no earlier file installed it.
  await cluster.apply(gitRepositoryCrd() as unknown as KubeObject, "flotilla-test", { force: true });
  await cluster.discovery.waitForMapping(
    { group: "source.toolkit.fluxcd.io", version: "v1", kind: "GitRepository" },
    60_000,
  );
  const create = (ns: string, name: string, url: string, timeout?: string) =>
    cluster.client.create(path(ns), {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: { name, namespace: ns, labels: { "flotilla.dev/shard": attacker } },
      spec: { url, interval: "10m", ref: { branch: "main" }, ...(timeout ? { timeout } : {}) },
    });
  const repo = await git.createRepo(bystander);
  const bystanderCommit = async (content: string) => {
    const sha = await repo.commit({ "a.yaml": content }, content);
    await cluster.client.patch(path(bystander, "app"), "merge", {
      metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: new Date().toISOString() } },
    });
    await eventually(`the bystander's commit ${sha}`, async () =>
      (await revisionOf(bystander, "app", storagePath))?.endsWith(sha),
    );
  };
  await repo.commit({ "a.yaml": "a: 0\n" }, "first");
  await create(bystander, "app", repo.url);
  await eventually(
    "the bystander's first artifact",
    async () => !!(await revisionOf(bystander, "app", storagePath)),
    120_000,
  );
  for (let i = 0; i < ATTACKERS; i++) await create(attacker, `stall-${i}`, `${stall.url}/${attacker}/${i}.git`, "600m");
  const gits = () => attackerGits(attacker, controller.child.pid!);
  return { controller, attacker, bystander, bystanderCommit, gits };
}

beforeAll(async () => {
  git = await startGitHttpServer();
  stall = await startStallingServer();
}, 60_000);

afterAll(async () => {
  await stall?.close();
  await git?.close();
});

describe("hostile tenant: a git server that never answers", () => {
  it("cannot hold every git slot: a bystander's new commit becomes Ready meanwhile, and the attacker's git processes and helpers stop at --max-object-timeout", async () => {
    // Workers enough for every GitRepository at once: the git slots, not the work queue, are contended.
    const t = await tenants("slots", ["--concurrent", "16", "--max-object-timeout", "60s"]);
    // The attack in place: 8 git runs (every ordinary slot) waiting on the silent server, with what git
    // started for each (the remote-http wrapper and git-remote-http).
    await eventually("8 attacker git runs stuck on the silent server", async () =>
      t.gits().length >= 8 ? true : undefined,
    );
    const stuck = attackerProcesses(t.attacker, t.controller.child.pid!);
    expect(stuck.filter((p) => p.argv.some((a) => a.endsWith("remote-http"))).length).toBeGreaterThanOrEqual(8);

    // Meanwhile the bystander's new commit goes through — while the first wave still stalls.
    const attackInPlace = Date.now();
    await t.bystanderCommit("a: 1\n");
    const bystanderSeconds = (Date.now() - attackInPlace) / 1000;
    expect(stuck.every((p) => isAlive(p.pid))).toBe(true);

    // The cap bites: the attacker is told its 600m (10 hours: the CRD takes no "h") was capped.
    const failed = await eventually(
      "the attacker's git to time out at the cap",
      async () => {
        const gr = await cluster.client.get<GitRepository>(path(t.attacker, "stall-0"));
        const ready = gr.status?.conditions?.find((c) => c.type === "Ready");
        return ready?.status === "False" && ready.message.includes("timed out") ? ready : undefined;
      },
      150_000,
    );
    expect(failed.message).toContain("timed out after 60s (spec.timeout 600m capped to 1m0s by --max-object-timeout)");

    // What git started for the first wave is gone with git: its whole process group was killed.
    const cappedAt = Date.now();
    await eventually(
      "the first wave's git processes and helpers to be gone",
      async () => stuck.every((p) => !isAlive(p.pid)),
      15_000,
    );
    console.log(
      `[fair-sharing] ${stuck.length} attacker processes stuck; bystander Ready after ${bystanderSeconds.toFixed(1)} s; ` +
        `first wave gone ${((Date.now() - cappedAt) / 1000).toFixed(1)} s after the capped status`,
    );
    // And nothing of the attacker runs re-parented to init, outliving the git that started it.
    const table = new Map(processTable().map((p) => [p.pid, p]));
    for (const p of processesMentioning(`${stall.url}/${t.attacker}/`))
      expect(underController(p, table), `${p.argv.join(" ")} outlived its git`).toBe(true);
    t.controller.child.kill("SIGKILL");
  }, 420_000);

  it("cannot hold every worker of the default --concurrent: a bystander's new commit becomes Ready while 4 attacker objects stall", async () => {
    const t = await tenants("workers", ["--max-object-timeout", "10m"]);
    await eventually("every ordinary worker stuck on the silent server", async () =>
      t.gits().length >= 4 ? true : undefined,
    );
    const stuck = t.gits();
    const attackInPlace = Date.now();
    await t.bystanderCommit("a: 1\n");
    console.log(
      `[fair-sharing] default workers: bystander Ready after ${((Date.now() - attackInPlace) / 1000).toFixed(1)} s`,
    );
    expect(stuck.every((p) => isAlive(p.pid))).toBe(true);
    t.controller.child.kill("SIGKILL");
  }, 300_000);
});
