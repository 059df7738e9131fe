// Deterministic tar.gz artifacts: entries sorted, owners, times and modes normalised (0644, or 0755
// when executable), so the same tree always gives the same bytes and the same digest.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { readTarGzSync } from "./tar-reader.js";

const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

function header(name: string, size: number, mode: number, type: "0" | "5"): Buffer {
  const buf = Buffer.alloc(BLOCK);
  let prefix = "";
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    // ustar: split at a slash into prefix (155) and name (100).
    for (let i = name.indexOf("/"); i >= 0; i = name.indexOf("/", i + 1)) {
      if (Buffer.byteLength(name.slice(i + 1)) <= 100 && Buffer.byteLength(name.slice(0, i)) <= 155) {
        prefix = name.slice(0, i);
        base = name.slice(i + 1);
        break;
      }
    }
    if (!prefix) throw new Error(`path too long for a tar artifact: ${name}`);
  }
  buf.write(base, 0, 100, "utf8");
  buf.write(octal(mode, 8), 100, 8, "ascii");
  buf.write(octal(0, 8), 108, 8, "ascii"); // uid
  buf.write(octal(0, 8), 116, 8, "ascii"); // gid
  buf.write(octal(size, 12), 124, 12, "ascii");
  buf.write(octal(0, 12), 136, 12, "ascii"); // mtime: epoch, for reproducibility
  buf.write("        ", 148, 8, "ascii"); // checksum placeholder
  buf.write(type, 156, 1, "ascii");
  buf.write("ustar\0", 257, 6, "ascii");
  buf.write("00", 263, 2, "ascii");
  buf.write(prefix, 345, 155, "utf8");
  let sum = 0;
  for (const b of buf) sum += b;
  buf.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return buf;
}

/** A gzipped tar of `files` (paths relative to `root`, "/"-separated), in sorted order. */
export function createTarball(root: string, files: string[]): Buffer {
  const parts: Buffer[] = [];
  const dirs = new Set<string>();
  for (const f of [...files].sort()) {
    const segments = f.split("/");
    for (let i = 1; i < segments.length; i++) {
      const dir = `${segments.slice(0, i).join("/")}/`;
      if (!dirs.has(dir)) {
        dirs.add(dir);
        parts.push(header(dir, 0, 0o755, "5"));
      }
    }
    const full = join(root, f);
    const content = readFileSync(full);
    const executable = (statSync(full).mode & 0o111) !== 0;
    parts.push(header(f, content.length, executable ? 0o755 : 0o644, "0"), content);
    const pad = (BLOCK - (content.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts), { level: 6 });
}

export interface TarEntry {
  path: string;
  type: "file" | "directory";
  mode: number;
  content: Buffer;
}

/** The files and directories of a tar.gz, in memory (for artifacts we made, and tests; links left out). */
export function readTarball(data: Buffer): TarEntry[] {
  const out: TarEntry[] = [];
  let chunks: Buffer[] | undefined;
  readTarGzSync(data, {
    header: (h) => {
      chunks = undefined;
      const path = h.path.replace(/\/$/, "");
      if (h.typeflag === "5") out.push({ path, type: "directory", mode: h.mode, content: Buffer.alloc(0) });
      else if (h.typeflag === "0" || h.typeflag === "7") {
        chunks = [];
        out.push({ path, type: "file", mode: h.mode, content: Buffer.alloc(0) });
      }
    },
    data: (chunk) => chunks?.push(Buffer.from(chunk)),
    end: () => {
      if (chunks) out[out.length - 1]!.content = Buffer.concat(chunks);
      chunks = undefined;
    },
  });
  return out;
}
