// External programs (git, helm) run in a process group of their own, and stopping one stops its whole
// group: killing only the direct child left git's remote helpers (git-remote-http, ssh) and helm's
// post-renderer running — and, against a server that never answers, holding their sockets for ever
// (decision 0030). Groups still alive when this process exits are killed with it, since a child in its
// own group no longer gets the terminal's or a supervisor's signal to ours.
import { type ChildProcess, spawn, type SpawnOptions } from "node:child_process";

const live = new Set<number>();
let exitHookInstalled = false;

/** Sends `signal` to every process of the child's group; a group already gone is not an error. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
  }
}

/** spawn(), with the child leading a new process group (and session: no terminal of ours). */
export function spawnInGroup(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const pid of live) {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // gone already
        }
      }
    });
  }
  const child = spawn(command, args, { ...options, detached: true });
  const pid = child.pid;
  if (pid !== undefined) {
    live.add(pid);
    child.once("close", () => live.delete(pid));
  }
  return child;
}
