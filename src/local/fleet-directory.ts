// Preparing the fleet directory: writable, not hosting a live fleet, and free of a killed run's leftovers.
import { accessSync, constants, mkdirSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { FleetDirectoryError, FleetRunningError } from "./errors.js";
import { isFleetLive, liveProcesses, readFleetState } from "./fleet-state.js";
import { FLEET_ENTRIES } from "./plane-files.js";
import { terminate } from "./processes.js";

/** Default home of the local fleet: $XDG_STATE_HOME/flotilla/local or ~/.local/state/flotilla/local. */
export function defaultFleetDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_STATE_HOME || join(homedir(), ".local", "state"), "flotilla", "local");
}

export function ensureWritableDir(dir: string): string {
  const full = resolve(dir);
  try {
    mkdirSync(full, { recursive: true });
    accessSync(full, constants.W_OK | constants.X_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "error";
    throw new FleetDirectoryError(`fleet directory ${full} is not writable (${code}); pass a writable --dir`);
  }
  return full;
}

/** Removes what a fleet wrote, and nothing else the user keeps there. */
export function removeFleetEntries(dir: string): void {
  for (const entry of FLEET_ENTRIES) rmSync(join(dir, entry), { recursive: true, force: true });
}

/**
 * Refuses a directory whose fleet is live; cleans one left by a killed run (stopping any of its
 * processes that survived). Returns a note for the user when it cleaned something.
 */
export async function claimFleetDir(dir: string): Promise<string | undefined> {
  const state = readFleetState(dir);
  if (state && isFleetLive(state)) {
    throw new FleetRunningError(
      `a local fleet is already running in ${dir} (started ${state.startedAt}); use it, or stop it with: flotilla local down --dir ${dir}`,
    );
  }
  const survivors = state ? liveProcesses(state) : [];
  await terminate(survivors);
  removeFleetEntries(dir);
  if (!state || state.phase === "failed") return undefined;
  return `cleaned up a stale fleet in ${dir} left by an interrupted run${survivors.length ? ` (stopped ${survivors.length} leftover processes)` : ""}`;
}
