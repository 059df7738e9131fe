// Starts ONE local fleet (management + 2 tenant planes) for the whole e2e run and stops it at the
// end, also when tests fail. Fleets of earlier runs that were killed are swept first.
// FLOTILLA_TEST_FLEET_DIR=<dir> reuses a fleet already running there (fast local iteration).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { downFleet, readFleetState, upFleet } from "../../src/local/index.js";
import type { TestFleet } from "./fleet-context.js";
import { sweepStaleWorkDirs } from "../../src/util/work-dir.js";

const PREFIX = "flotilla-test-fleet-";

function ownerAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function sweepAbandonedFleets(): Promise<void> {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(PREFIX)) continue;
    const dir = join(tmpdir(), entry);
    const state = readFleetState(dir);
    if (state && ownerAlive(state.ownerPid)) continue; // another test run is using it
    if (state) await downFleet(dir).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

export default async function setup(project: TestProject) {
  // Tests make their scratch directories with makeWorkDir (<tmp>/flotilla-work/<pid>); those of earlier
  // runs, whose processes are gone, are removed here.
  sweepStaleWorkDirs();
  const reuse = process.env.FLOTILLA_TEST_FLEET_DIR;
  if (reuse && readFleetState(reuse)?.phase === "running") {
    project.provide("fleet", { dir: reuse, state: readFleetState(reuse)! } satisfies TestFleet);
    return;
  }
  await sweepAbandonedFleets();
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  const result = await upFleet({ dir, tenants: 2, log: (line) => process.stderr.write(`[fleet] ${line}\n`) });
  process.stderr.write(`[fleet] ready in ${(result.durationMs / 1000).toFixed(1)}s in ${dir}\n`);
  project.provide("fleet", { dir, state: result.state } satisfies TestFleet);

  const stop = async () => {
    await downFleet(dir).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };
  // Ctrl-C or a CI timeout must not leave control planes behind.
  const onSignal = (signal: NodeJS.Signals) => {
    void stop().finally(() => process.kill(process.pid, signal));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return async () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await stop();
  };
}
