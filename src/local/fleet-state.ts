// The fleet directory's record of what runs: written as each process starts, so a run that is
// killed half-way still leaves enough behind for the next `up` or `down` to clean it.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ComponentName } from "./components.js";
import { isRunning } from "./processes.js";

export type PlaneRole = "management" | "tenant";

export interface RecordedProcess {
  component: ComponentName;
  pid: number;
  /** argv[0] at start, to tell our process from a later one reusing the pid. */
  command: string;
  /** Arguments it was started with, so it can be restarted the same way. */
  args: string[];
  logFile: string;
}

export interface PlaneRecord {
  name: string;
  role: PlaneRole;
  port: number;
  /** Admin kubeconfig for users of this plane. */
  kubeconfig: string;
  /** Super-admin (system:masters) kubeconfig used to bootstrap the plane. */
  superAdminKubeconfig: string;
  processes: RecordedProcess[];
}

export interface FleetState {
  formatVersion: 1;
  /** "starting" until every plane is ready (a dead owner then means an interrupted `up`); "failed" after a start that failed and stopped what it started. */
  phase: "starting" | "running" | "failed";
  ownerPid: number;
  startedAt: string;
  readyAt?: string;
  kubernetesVersion: string;
  etcd?: { port: number; process: RecordedProcess };
  planes: PlaneRecord[];
}

const stateFile = (dir: string) => join(dir, "state.json");

export function readFleetState(dir: string): FleetState | undefined {
  const file = stateFile(dir);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as FleetState;
  } catch {
    return undefined; // a torn write from a killed run: treated as stale
  }
}

export function writeFleetState(dir: string, state: FleetState): void {
  mkdirSync(dir, { recursive: true });
  const tmp = `${stateFile(dir)}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, stateFile(dir));
}

function allProcesses(state: FleetState): RecordedProcess[] {
  return [...state.planes.flatMap((p) => p.processes), ...(state.etcd ? [state.etcd.process] : [])];
}

export function liveProcesses(state: FleetState): RecordedProcess[] {
  return allProcesses(state).filter((p) => isRunning(p.pid, p.command, p.args));
}

/**
 * A fleet is live when its `up` finished and any process still runs, or while its `up` is
 * still running. Anything else in the directory is left over from a killed run.
 */
export function isFleetLive(state: FleetState): boolean {
  if (state.phase === "failed") return false;
  if (state.phase === "starting") return isOwnerAlive(state.ownerPid) && state.ownerPid !== process.pid;
  return liveProcesses(state).length > 0;
}

function isOwnerAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
