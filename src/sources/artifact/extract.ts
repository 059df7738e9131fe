// Unpacking a tar.gz artifact (or a chart) into a directory, safely and in two passes. The first
// reads only headers (inflating as it goes, stopping at the first bad one): an entry with an absolute
// path or a `..` segment, a symbolic link leading out of the directory, a hard link, a device or a
// fifo, or more files or bytes than the limits refuse the whole archive before anything is written —
// so a tar bomb stops early and a refused archive leaves nothing behind. The second pass writes files
// and directories; links that stay inside are not created (artifacts never hold links: the
// GitRepository archive leaves them out, as Flux's does). A link already in the directory (a Git
// checkout receiving includes) is never written through when it leads outside. Modes keep their
// executable bits; the owner can always read and write.
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, realpathSync, writeSync } from "node:fs";
import { dirname, join, normalize, posix, sep } from "node:path";
import { UnsafeArchiveError } from "./errors.js";
import { type ArtifactLimits, DEFAULT_ARTIFACT_LIMITS, tooLarge, tooManyFiles } from "./limits.js";
import { readTarGz, type TarHeader } from "./tar-reader.js";

/** An entry written (or placed elsewhere) by extraction. */
export interface ExtractedEntry {
  path: string;
  type: "file" | "directory";
  mode: number;
  size: number;
}

/** Where an entry goes, relative to the directory; undefined skips it. */
export type Placement = (entry: ExtractedEntry) => string | undefined;

export interface ExtractOptions {
  place?: Placement;
  limits?: ArtifactLimits;
  /** Names the archive in limit errors ("artifact of GitRepository ns/name"). */
  what?: string;
}

function checkPath(path: string): void {
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path))
    throw new UnsafeArchiveError(`archive entry '${path}' has an absolute path`);
  if (path.split(/[/\\]/).includes(".."))
    throw new UnsafeArchiveError(`archive entry '${path}' leaves the directory it is unpacked into`);
}

const KIND: Record<string, string> = {
  "1": "a hard link",
  "3": "a character device",
  "4": "a block device",
  "6": "a fifo",
};

/** The entry as extraction treats it: a file or directory to write, a link to leave out, or a refusal. */
function classify(h: TarHeader): ExtractedEntry | undefined {
  checkPath(h.path);
  const path = h.path.replace(/\/+$/, "");
  if (h.typeflag === "0" || h.typeflag === "7") return { path, type: "file", mode: h.mode, size: h.size };
  if (h.typeflag === "5") return { path, type: "directory", mode: h.mode, size: 0 };
  if (h.typeflag === "2") {
    // Resolved from the link's own directory, as the kernel would: it must stay inside.
    const target = posix.normalize(posix.join(posix.dirname(path), h.linkpath));
    if (h.linkpath.startsWith("/") || target === ".." || target.startsWith("../"))
      throw new UnsafeArchiveError(
        `archive entry '${h.path}' is a symbolic link leading outside the directory (to '${h.linkpath}')`,
      );
    return undefined;
  }
  throw new UnsafeArchiveError(
    `archive entry '${h.path}' is ${KIND[h.typeflag] ?? `of unsupported type '${h.typeflag}'`}; artifacts hold only files and directories`,
  );
}

/** Counts against the limits, header by header (before any data is inflated). */
export function limiter(limits: ArtifactLimits, what = "the artifact") {
  let files = 0;
  let dirs = 0;
  let bytes = 0;
  return (e: TarHeader) => {
    if (e.typeflag === "5") {
      if (++dirs > limits.maxFiles) throw tooManyFiles(limits, `${what} (directories)`);
      return;
    }
    if (++files > limits.maxFiles) throw tooManyFiles(limits, what);
    if (e.size > limits.maxSize) throw tooLarge(limits, what, e.path);
    bytes += e.size;
    if (bytes > limits.maxSize) throw tooLarge(limits, what);
  };
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
 * Writes the archive's files and directories under `dir` (each at its own path, or where `place`
 * says); returns the entries written, in archive order.
 */
export async function extractTarball(data: Buffer, dir: string, o: ExtractOptions = {}): Promise<ExtractedEntry[]> {
  const place = o.place ?? ((e) => e.path);
  const count = limiter(o.limits ?? DEFAULT_ARTIFACT_LIMITS, o.what);
  const root = normalize(dir);
  const targetOf = (e: ExtractedEntry): string | undefined => {
    const rel = place(e);
    if (rel === undefined) return undefined;
    checkPath(rel);
    const target = normalize(join(root, rel));
    if (!inside(target, root))
      throw new UnsafeArchiveError(`archive entry '${e.path}' leaves the directory it is unpacked into`);
    return target;
  };
  // Pass 1: every header judged, nothing written.
  await readTarGz(data, {
    header: (h) => {
      count(h);
      const e = classify(h);
      if (e) targetOf(e);
    },
  });
  // Pass 2: the archive passed; write it.
  mkdirSync(root, { recursive: true });
  const realRoot = realpathSync(root);
  const checked = new Set<string>();
  const written: ExtractedEntry[] = [];
  let fd: number | undefined;
  try {
    await readTarGz(data, {
      header: (h) => {
        const e = classify(h);
        const target = e && targetOf(e);
        if (!e || !target) return;
        checkReallyInside(e.type === "directory" ? target : dirname(target), realRoot, e.path, checked);
        if (e.type === "directory") mkdirSync(target, { recursive: true });
        else {
          mkdirSync(dirname(target), { recursive: true });
          checkExistingLink(target, realRoot, e.path);
          fd = openSync(target, "w", (e.mode & 0o755) | 0o600);
        }
        written.push(e);
      },
      data: (chunk) => {
        if (fd !== undefined) writeSync(fd, chunk);
      },
      end: () => {
        if (fd !== undefined) closeSync(fd);
        fd = undefined;
      },
    });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return written;
}
