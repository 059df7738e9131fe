// The tar.gz `flux build artifact` / `flux push artifact` make (fluxcd/pkg/oci build.go → fluxcd/pkg/tar):
// a pre-order walk in byte order of names (Go's filepath.WalkDir) starting with the directory itself as
// ".", directories without a trailing slash, regular files and directories only (links skipped), each
// header as Go's archive/tar writes USTAR: the file's own permission bits (plus setuid/setgid/sticky),
// uid/gid 0, no user or group names, mtime 0, device numbers "0000000", names over 100 bytes split into
// prefix/name at the last fitting slash; two zero blocks at the end, no record padding. A single file is
// archived as Flux stages it: inside a directory of mode 0700.
//
// The tar stream is byte for byte Flux's. The gzip around it cannot be: Go's compress/flate and zlib
// pick different matches, so only the header (mtime 0, no name, XFL 0, OS 255 "unknown") matches.
import { lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import ignore from "ignore";
import { OciError } from "./errors.js";

const BLOCK = 512;

/** `flux build|push artifact`'s default --ignore-paths (sourceignore.ExcludeVCS + ExcludeExt). */
export const FLUX_DEFAULT_IGNORE_PATHS = [
  ".git/", ".gitignore", ".gitmodules", ".gitattributes",
  "*.jpg", "*.jpeg", "*.gif", "*.png", "*.wmv", "*.flv", "*.tar.gz", "*.zip",
]; // prettier-ignore

interface Entry {
  name: string;
  mode: number;
  dir: boolean;
  path?: string;
}

function octal(buf: Buffer, offset: number, width: number, value: number): void {
  buf.write(`${value.toString(8).padStart(width - 1, "0")}\0`, offset, width, "ascii");
}

/** Go's splitUSTARPath: a name over 100 bytes split at the last slash that leaves both parts in range. */
function splitName(name: string): [string, string] {
  if (name.length <= 100) return ["", name];
  let length = name.length > 156 ? 156 : name.endsWith("/") ? name.length - 1 : name.length;
  const i = name.slice(0, length).lastIndexOf("/");
  length = name.length - i - 1;
  if (i <= 0 || length > 100 || length === 0 || i > 155) throw unsupported(name, "is too long for a USTAR header");
  return [name.slice(0, i), name.slice(i + 1)];
}

const unsupported = (name: string, why: string) =>
  new OciError(
    `cannot archive '${name}': the path ${why}, which needs a PAX header flotilla does not write; rename it or add it to the ignore paths`,
  );

function header(name: string, mode: number, size: number, dir: boolean): Buffer {
  if ([...name].some((c) => c.charCodeAt(0) > 0x7f)) throw unsupported(name, "is not ASCII");
  const [prefix, base] = splitName(name);
  const h = Buffer.alloc(BLOCK);
  h.write(base, 0, 100, "ascii");
  octal(h, 100, 8, mode);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, size);
  octal(h, 136, 12, 0);
  h.write(dir ? "5" : "0", 156, 1, "ascii");
  h.write("ustar\0", 257, 6, "ascii");
  h.write("00", 263, 2, "ascii");
  octal(h, 329, 8, 0); // devmajor
  octal(h, 337, 8, 0); // devminor
  h.write(prefix, 345, 155, "ascii");
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return h;
}

/** Go's tar mode of a file: its permission bits, plus setuid (04000), setgid (02000), sticky (01000). */
const tarMode = (statMode: number) => statMode & 0o7777;

function walk(root: string, ignorePaths: string[]): Entry[] {
  const filter = ignore().add(ignorePaths.filter((p) => p.trim() && !p.startsWith("#")));
  const out: Entry[] = [{ name: ".", mode: tarMode(statSync(root).mode), dir: true }];
  const visit = (dir: string, rel: string) => {
    const names = readdirSync(dir).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    for (const name of names) {
      const path = join(dir, name);
      const relPath = rel ? `${rel}/${name}` : name;
      const st = lstatSync(path);
      if (!st.isFile() && !st.isDirectory()) continue; // links, devices, fifos, sockets: skipped, as Flux does
      const ignored = filter.ignores(st.isDirectory() ? `${relPath}/` : relPath);
      // Flux drops an ignored directory's own entry but still walks into it (its filter never returns SkipDir).
      if (!ignored) out.push({ name: relPath, mode: tarMode(st.mode), dir: st.isDirectory(), path });
      if (st.isDirectory()) visit(path, relPath);
    }
  };
  visit(root, "");
  return out;
}

/** The tar.gz of `path` (a directory, or one file) that `flux build artifact --path=<path>` writes. */
export async function buildArtifact(path: string, ignorePaths: string[]): Promise<Buffer> {
  const abs = resolve(path);
  const st = statSync(abs, { throwIfNoEntry: false });
  if (!st) throw new OciError(`source path does not exist: ${abs}`);
  const entries: Entry[] = st.isDirectory()
    ? walk(abs, ignorePaths)
    : [
        { name: ".", mode: 0o700, dir: true },
        { name: basename(abs), mode: tarMode(st.mode), dir: false, path: abs },
      ];
  const parts: Buffer[] = [];
  for (const e of entries) {
    const content = e.dir ? undefined : readFileSync(e.path!);
    parts.push(header(e.name, e.mode, content?.length ?? 0, e.dir));
    if (content) {
      parts.push(content);
      const pad = (BLOCK - (content.length % BLOCK)) % BLOCK;
      if (pad) parts.push(Buffer.alloc(pad));
    }
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return goGzipHeader(gzipSync(Buffer.concat(parts)));
}

/** zlib's gzip header says OS 3 (Unix); Go's says 255 (unknown). Everything else in it already matches. */
function goGzipHeader(gz: Buffer): Buffer {
  gz[9] = 255;
  return gz;
}
