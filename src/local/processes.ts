// Long-running fleet processes. They are started detached (own process group, stdio to log files)
// so the fleet outlives the `flotilla local up` command; their pids are recorded in the fleet
// state so `down`, `status` and stale-run cleanup can find them again.
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

export interface DaemonSpec {
  command: string;
  args: string[];
  logFile: string;
  env?: NodeJS.ProcessEnv;
}

/** Starts a detached process writing stdout+stderr to its log file; resolves once it has a pid. */
export function spawnDaemon(spec: DaemonSpec): Promise<number> {
  const fd = openSync(spec.logFile, "a");
  try {
    const child = spawn(spec.command, spec.args, {
      detached: true,
      stdio: ["ignore", fd, fd],
      env: spec.env ?? process.env,
    });
    return new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("spawn", () => {
        child.unref();
        resolve(child.pid!);
      });
    });
  } finally {
    closeSync(fd);
  }
}

/** The process's argv, or undefined when it no longer exists. */
function commandLine(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return undefined;
  }
}

/**
 * True when `pid` is alive and still runs `command` with `args` (pids are reused — on a busy machine
 * within minutes — and every fleet's processes run the same binary, so a recorded pid of a dead fleet
 * must not make us signal another fleet's etcd: the arguments, which name the fleet's own directory and
 * ports, must match too). Zombies count as dead.
 */
export function isRunning(pid: number, command: string, args?: readonly string[]): boolean {
  const argv = commandLine(pid);
  if (!argv?.length || argv[0] !== command) return false;
  // cmdline drops empty arguments in the split above; compare the same way.
  const expected = args?.filter(Boolean);
  if (expected && (argv.length - 1 !== expected.length || expected.some((a, i) => argv[i + 1] !== a))) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

export interface ProcessMemory {
  /** Resident set: counts the shared pages of the multi-call binary in full for every process. */
  rss: number;
  /** Proportional set: shared pages split among the processes mapping them, the fair per-process cost. */
  pss: number;
  /** Peak resident set (VmHWM) since start. */
  peakRss: number;
}

/** Memory of a process in bytes from /proc, or undefined when it is gone. */
export function memoryOf(pid: number): ProcessMemory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const kb = (text: string, field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0) * 1024;
    return { rss: kb(status, "VmRSS"), pss: kb(rollup, "Pss"), peakRss: kb(status, "VmHWM") };
  } catch {
    return undefined;
  }
}

/** SIGTERM, then SIGKILL after `graceMs`, for every process still running its recorded command. */
export async function terminate(
  processes: { pid: number; command: string; args?: string[] }[],
  graceMs = 5000,
): Promise<void> {
  const live = () => processes.filter((p) => isRunning(p.pid, p.command, p.args));
  for (const p of live()) signal(p.pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (live().length && Date.now() < deadline) await sleep(100);
  for (const p of live()) signal(p.pid, "SIGKILL");
  const killDeadline = Date.now() + 5000;
  while (live().length && Date.now() < killDeadline) await sleep(50);
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Last non-empty lines of a log file, for error messages. */
export function tailLog(file: string, lines = 1): string {
  try {
    const all = readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim());
    return all.slice(-lines).join("\n");
  } catch {
    return "";
  }
}
