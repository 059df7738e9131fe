// Scratch directories for checkouts, chart packaging and keyrings, grouped per process under
// <tmp>/flotilla-work/<pid>. A controller killed with SIGKILL cannot clean up after itself, so the
// next one sweeps the directories of processes that no longer run (a pid still alive, or one we may
// not signal, is left alone).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const workBase = () => join(tmpdir(), "flotilla-work");

let root: string | undefined;

function processRoot(): string {
  if (!root) {
    root = join(workBase(), String(process.pid));
    mkdirSync(root, { recursive: true });
  }
  return root;
}

/** A fresh directory for one operation; the caller removes it when done. */
export function makeWorkDir(prefix: string): string {
  return mkdtempSync(join(processRoot(), prefix));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  // A zombie (killed, not yet reaped by its parent) answers signal 0 but will never run again.
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return true;
  }
}

/** Removes the scratch directories of processes that are gone; returns their pids. */
export function sweepStaleWorkDirs(): number[] {
  let entries: string[];
  try {
    entries = readdirSync(workBase());
  } catch {
    return [];
  }
  const swept: number[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!/^\d+$/.test(entry) || pid === process.pid || alive(pid)) continue;
    rmSync(join(workBase(), entry), { recursive: true, force: true });
    swept.push(pid);
  }
  return swept;
}
