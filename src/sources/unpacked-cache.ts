// Unpacked artifacts, one directory per digest, shared by every consumer of that revision. A
// directory is reused only when the marker written after its verified unpack says so (a directory
// without one — an interrupted unpack, or anything placed there — is removed and unpacked again),
// and the cache stays bounded: each source keeps its newest two revisions, and a directory no
// source keeps and no reconcile holds is deleted (issue 28: it grew until the volume was full).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

export interface CacheOptions {
  /** Revisions kept per source, the current one included (as storage keeps two artifacts). */
  keepPerSource?: number;
  /** A lease not released within this time is dropped (a reconcile that forgot, or crashed). */
  maxHoldMs?: number;
}

export interface Lease {
  dir: string;
  /** Lets the directory be collected once no source keeps it; idempotent. */
  release(): void;
}

const MARKER = ".unpacked";

/** A temporary directory of an unpack still running: ours, or of a live process beside us. */
function unpackingElsewhere(entry: string): boolean {
  const pid = Number(/\.tmp-(\d+)-/.exec(entry)?.[1] ?? NaN);
  if (Number.isNaN(pid)) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export class UnpackedCache {
  private readonly leases = new Map<string, number>();
  /** Digests per source id, newest first. */
  private readonly revisions = new Map<string, string[]>();
  private readonly unpacking = new Map<string, Promise<void>>();
  private readonly keep: number;
  private readonly maxHoldMs: number;

  constructor(
    readonly root: string,
    o: CacheOptions = {},
  ) {
    this.keep = o.keepPerSource ?? 2;
    this.maxHoldMs = o.maxHoldMs ?? 15 * 60_000;
  }

  /** The directory holding `digest` unpacked, unpacking it with `unpack(tmpDir)` when absent or unverified. */
  async lease(sourceId: string, digest: string, unpack: (tmp: string) => Promise<void>): Promise<Lease> {
    const name = digest.replace(/[^a-z0-9]/gi, "-");
    const dir = join(this.root, name);
    this.hold(dir);
    let released = false;
    const timer = setTimeout(() => release(), this.maxHoldMs);
    timer.unref();
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      this.drop(dir);
    };
    try {
      if (!this.verified(dir, digest)) await this.unpackOnce(dir, digest, unpack);
    } catch (err) {
      release();
      throw err;
    }
    if (this.remember(sourceId, name)) this.collect();
    return { dir, release };
  }

  /** True when `dir` holds a completed unpack of exactly `digest`; anything else there is removed. */
  private verified(dir: string, digest: string): boolean {
    if (this.marked(dir, digest)) return true;
    rmSync(dir, { recursive: true, force: true });
    return false;
  }

  private marked(dir: string, digest: string): boolean {
    try {
      return existsSync(dir) && readFileSync(`${dir}${MARKER}`, "utf8") === digest;
    } catch {
      return false; // no marker: not ours, or interrupted
    }
  }

  private unpackOnce(dir: string, digest: string, unpack: (tmp: string) => Promise<void>): Promise<void> {
    // One unpack per artifact at a time: every consumer of a new revision arrives together.
    let running = this.unpacking.get(dir);
    if (!running) {
      running = (async () => {
        mkdirSync(this.root, { recursive: true });
        const tmp = mkdtempSync(`${dir}.tmp-${process.pid}-`);
        try {
          await unpack(tmp);
          if (this.marked(dir, digest)) return; // another process sharing the cache finished first
          rmSync(`${dir}${MARKER}`, { force: true });
          rmSync(dir, { recursive: true, force: true });
          renameSync(tmp, dir);
          writeFileSync(`${dir}${MARKER}`, digest);
        } finally {
          rmSync(tmp, { recursive: true, force: true });
        }
      })();
      this.unpacking.set(dir, running);
      void running.finally(() => this.unpacking.delete(dir)).catch(() => undefined);
    }
    return running;
  }

  /** Records `name` as the source's newest revision; true when that is news (time to collect). */
  private remember(sourceId: string, name: string): boolean {
    const list = this.revisions.get(sourceId) ?? [];
    if (list[0] === name) return false;
    this.revisions.set(sourceId, [name, ...list.filter((n) => n !== name)].slice(0, this.keep));
    return true;
  }

  private hold(dir: string): void {
    this.leases.set(dir, (this.leases.get(dir) ?? 0) + 1);
  }

  private drop(dir: string): void {
    const n = (this.leases.get(dir) ?? 1) - 1;
    if (n > 0) this.leases.set(dir, n);
    else this.leases.delete(dir);
  }

  /** Deletes every directory no source keeps and no reconcile holds; returns their names. */
  collect(): string[] {
    if (!existsSync(this.root)) return [];
    const kept = new Set([...this.revisions.values()].flat());
    const removed: string[] = [];
    for (const entry of readdirSync(this.root)) {
      const name = entry.endsWith(MARKER) ? entry.slice(0, -MARKER.length) : entry;
      const dir = join(this.root, name);
      if (kept.has(name) || this.leases.has(dir) || this.unpacking.has(dir) || unpackingElsewhere(entry)) continue;
      rmSync(join(this.root, entry), { recursive: true, force: true });
      removed.push(entry);
    }
    return removed;
  }
}
