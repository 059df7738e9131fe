// Unpacking a tar.gz artifact (or a chart) into a directory, safely: an entry with an absolute path or
// a `..` segment refuses the whole archive; links are never created (readTarball yields files and
// directories only); and a link already in the directory (a Git checkout receiving includes) is never
// written through when it leads outside. Modes keep their executable bits; the owner can always read
// and write.
import { existsSync, lstatSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import { UnsafeArchiveError } from "./errors.js";
import { readTarball, type TarEntry } from "./tarball.js";

/** Where an entry goes, relative to the directory; undefined skips it. */
export type Placement = (entry: TarEntry) => string | undefined;

function checkEntry(path: string): void {
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path))
    throw new UnsafeArchiveError(`archive entry '${path}' has an absolute path`);
  if (path.split(/[/\\]/).includes(".."))
    throw new UnsafeArchiveError(`archive entry '${path}' leaves the directory it is unpacked into`);
}

const inside = (path: string, root: string) => path === root || path.startsWith(root + sep);

const throughLink = (entry: string) =>
  new UnsafeArchiveError(`archive entry '${entry}' would be written through a link leaving the directory`);

/** Throws unless the deepest existing ancestor of `dir` really (links resolved) lies inside `realRoot`. */
function checkReallyInside(dir: string, realRoot: string, entry: string, checked: Set<string>): void {
  let existing = dir;
  while (!existsSync(existing)) existing = dirname(existing);
  if (checked.has(existing)) return;
  if (!inside(realpathSync(existing), realRoot)) throw throughLink(entry);
  checked.add(existing);
}

/** A file already at `target` that is a link: only followed when it resolves inside `realRoot`. */
function checkExistingLink(target: string, realRoot: string, entry: string): void {
  if (!lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink()) return;
  let real: string | undefined;
  try {
    real = realpathSync(target);
  } catch {
    real = undefined; // dangling: it could be made to point anywhere
  }
  if (!real || !inside(real, realRoot)) throw throughLink(entry);
}

/**
 * Writes the archive's entries under `dir` (each at its own path, or where `place` says); returns
 * the entries written, in archive order.
 */
export function extractTarball(data: Buffer, dir: string, place: Placement = (e) => e.path): TarEntry[] {
  const entries = readTarball(data);
  for (const e of entries) checkEntry(e.path);
  const root = normalize(dir);
  mkdirSync(root, { recursive: true });
  const realRoot = realpathSync(root);
  const checked = new Set<string>();
  const written: TarEntry[] = [];
  for (const e of entries) {
    const rel = place(e);
    if (rel === undefined) continue;
    checkEntry(rel);
    const target = normalize(join(root, rel));
    if (!inside(target, root))
      throw new UnsafeArchiveError(`archive entry '${e.path}' leaves the directory it is unpacked into`);
    checkReallyInside(e.type === "directory" ? target : dirname(target), realRoot, e.path, checked);
    if (e.type === "directory") mkdirSync(target, { recursive: true });
    else {
      mkdirSync(dirname(target), { recursive: true });
      checkExistingLink(target, realRoot, e.path);
      writeFileSync(target, e.content, { mode: (e.mode & 0o755) | 0o600 });
    }
    written.push(e);
  }
  return written;
}
