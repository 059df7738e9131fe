// The machine's process table, read from /proc: to prove what a controller left running (a git
// remote helper or a helm post-renderer that outlived its parent), by command line and parent.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessEntry {
  pid: number;
  ppid: number;
  argv: string[];
}

function entry(pid: number): ProcessEntry | undefined {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return argv.length ? { pid, ppid, argv } : undefined; // zombies have no command line
  } catch {
    return undefined; // exited while we read
  }
}

export function processTable(): ProcessEntry[] {
  return readdirSync("/proc")
    .filter((d) => /^[0-9]+$/.test(d))
    .map((d) => entry(Number(d)))
    .filter((e): e is ProcessEntry => e !== undefined);
}

/** Processes whose command line mentions `text` (e.g. a server's address). */
export function processesMentioning(text: string): ProcessEntry[] {
  return processTable().filter((p) => p.argv.some((a) => a.includes(text)));
}

/** Whether `pid` is still running (a zombie counts as gone). */
export function isAlive(pid: number): boolean {
  return entry(pid) !== undefined;
}
