// The files a fleet procedure writes in a repository working tree, and only those: each write is
// recorded (path → sha256 of what flotilla wrote) in `.flotilla/written.json`, so a later procedure may
// rewrite or delete a file only when it is still exactly what flotilla wrote. A file someone else wrote
// or edited is never overwritten or deleted: the procedure stops and names it. Changes are checked as
// they are asked for and written together at the end (`save`), so a refused procedure changes nothing.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { FleetError } from "../errors.js";

export const RECORD = ".flotilla/written.json";

export class NotOurFile extends FleetError {
  override name = "NotOurFile";
}

export type Change = { path: string; action: "created" | "updated" | "removed" | "unchanged" };

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

export class WorkingTree {
  private readonly record: Record<string, string>;
  readonly changes: Change[] = [];
  /** path → the content to write, or null to delete; applied by save(). */
  private readonly pending = new Map<string, string | null>();

  constructor(readonly root: string) {
    const file = join(root, RECORD);
    this.record = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>) : {};
  }

  private full(path: string): string {
    const full = resolve(this.root, path);
    if (!full.startsWith(resolve(this.root) + sep)) throw new FleetError(`${path} is outside the repository`);
    return full;
  }

  read(path: string): string | undefined {
    if (this.pending.has(path)) return this.pending.get(path) ?? undefined;
    return this.onDisk(path);
  }

  private onDisk(path: string): string | undefined {
    const full = this.full(path);
    return existsSync(full) ? readFileSync(full, "utf8") : undefined;
  }

  /** Ours when flotilla wrote it and nobody changed it since. */
  private ours(path: string, current: string): boolean {
    return this.pending.has(path) || this.record[path] === sha(current);
  }

  write(path: string, content: string): void {
    const current = this.read(path);
    if (current === content) {
      this.record[path] = sha(content);
      this.changes.push({ path, action: "unchanged" });
      return;
    }
    if (current !== undefined && !this.ours(path, current))
      throw new NotOurFile(
        `${path} exists and was not written by flotilla (or was edited since): move it away or make the change by hand`,
      );
    this.pending.set(path, content);
    this.record[path] = sha(content);
    this.changes.push({ path, action: current === undefined ? "created" : "updated" });
  }

  /** Deletes a file flotilla wrote (unchanged since); a missing one is fine, anyone else's is refused. */
  remove(path: string): void {
    const current = this.read(path);
    if (current === undefined) {
      if (this.record[path]) {
        delete this.record[path];
        this.pending.set(path, null);
      }
      return;
    }
    if (!this.ours(path, current))
      throw new NotOurFile(`${path} was not written by flotilla (or was edited since): it is left for you to remove`);
    this.pending.set(path, null);
    delete this.record[path];
    this.changes.push({ path, action: "removed" });
  }

  /** Writes every change and the record; call once the whole procedure was checked. */
  save(): void {
    for (const [path, content] of this.pending) {
      const full = this.full(path);
      if (content !== null) {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, content);
        continue;
      }
      if (existsSync(full)) unlinkSync(full);
      // Directories left empty by our deletions go too; never a directory holding anything.
      for (let dir = dirname(full); dir !== resolve(this.root); dir = dirname(dir)) {
        if (readdirSync(dir).length) break;
        rmdirSync(dir);
      }
    }
    const sorted = Object.fromEntries(Object.entries(this.record).sort(([a], [b]) => (a < b ? -1 : 1)));
    mkdirSync(join(this.root, ".flotilla"), { recursive: true });
    writeFileSync(join(this.root, RECORD), `${JSON.stringify(sorted, null, 2)}\n`);
  }
}
