// Reading a tar stream incrementally, one gunzipped chunk at a time, so that a caller can refuse an
// archive at the first header that breaks a rule — before inflating the rest of a tar bomb. Knows
// ustar, pax ('x'/'g' records: path, linkpath, size) and GNU long names ('L'/'K'); every other
// header is handed to the caller with its type flag, to accept or refuse.
import { createGunzip, gunzipSync } from "node:zlib";
import { UnsafeArchiveError } from "./errors.js";

const BLOCK = 512;
/** pax records and GNU long names are metadata: more than this is an attack, not a path. */
const MAX_META_BYTES = 1024 * 1024;

export interface TarHeader {
  path: string;
  /** The tar type flag: "0" file, "5" directory, "1" hard link, "2" symlink, "3"/"4" devices, "6" fifo... */
  typeflag: string;
  mode: number;
  size: number;
  /** Target of a link entry. */
  linkpath: string;
}

export interface TarHandlers {
  header(h: TarHeader): void;
  data?(chunk: Buffer): void;
  /** After the last data chunk of an entry (also for entries without data). */
  end?(): void;
}

const text = (h: Buffer, start: number, len: number) => h.toString("utf8", start, start + len).replace(/\0.*$/s, "");

function numeric(h: Buffer, start: number, len: number): number {
  // GNU base-256 for values too big for octal: the high bit of the first byte is set.
  if (h[start]! & 0x80) {
    let n = h[start]! & 0x7f;
    for (let i = start + 1; i < start + len; i++) n = n * 256 + h[i]!;
    return n;
  }
  const s = text(h, start, len).trim();
  if (s && !/^[0-7]+$/.test(s)) throw new UnsafeArchiveError(`archive header has a malformed number "${s}"`);
  return parseInt(s || "0", 8);
}

/** The header's checksum, unsigned as POSIX says or signed as some old tars wrote it. */
function checksumOk(h: Buffer): boolean {
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const b = i >= 148 && i < 156 ? 0x20 : h[i]!;
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  const stored = numeric(h, 148, 8);
  return stored === unsigned || stored === signed;
}

/** pax extended header records: "<len> <key>=<value>\n". */
function paxRecords(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let off = 0;
  while (off < data.length) {
    const space = data.indexOf(0x20, off);
    const len = Number(data.toString("ascii", off, space));
    if (space < 0 || !Number.isInteger(len) || len <= 0 || off + len > data.length)
      throw new UnsafeArchiveError("archive has a malformed pax header");
    const record = data.toString("utf8", space + 1, off + len - 1);
    const eq = record.indexOf("=");
    out[record.slice(0, eq)] = record.slice(eq + 1);
    off += len;
  }
  return out;
}

/** A tar parser fed chunk by chunk; `done` once the end-of-archive block was read. */
export class TarReader {
  done = false;
  private pending = Buffer.alloc(0);
  private remaining = 0;
  private padding = 0;
  private meta?: { typeflag: string; chunks: Buffer[] };
  private next: { path?: string; linkpath?: string; size?: number } = {};

  constructor(private readonly on: TarHandlers) {}

  push(chunk: Buffer): void {
    let off = 0;
    while (off < chunk.length && !this.done) {
      if (this.remaining > 0) {
        const part = chunk.subarray(off, off + Math.min(this.remaining, chunk.length - off));
        this.remaining -= part.length;
        off += part.length;
        if (this.meta) this.meta.chunks.push(Buffer.from(part));
        else this.on.data?.(part);
        if (this.remaining === 0) this.endEntry();
      } else if (this.padding > 0) {
        const skip = Math.min(this.padding, chunk.length - off);
        this.padding -= skip;
        off += skip;
      } else {
        const take = Math.min(BLOCK - this.pending.length, chunk.length - off);
        this.pending = Buffer.concat([this.pending, chunk.subarray(off, off + take)]);
        off += take;
        if (this.pending.length === BLOCK) {
          const h = this.pending;
          this.pending = Buffer.alloc(0);
          this.header(h);
        }
      }
    }
  }

  /** Throws when the stream stopped inside an entry (a missing end-of-archive block is tolerated, as Go's reader does). */
  finish(): void {
    if (!this.done && (this.remaining > 0 || this.pending.length > 0 || this.meta))
      throw new UnsafeArchiveError("archive is truncated: it ends inside an entry");
  }

  private header(h: Buffer): void {
    if (h.every((b) => b === 0)) {
      this.done = true;
      return;
    }
    if (!checksumOk(h))
      throw new UnsafeArchiveError("archive has a corrupt header (checksum mismatch): not a tar file");
    const typeflag = text(h, 156, 1) || "0";
    const size = this.next.size ?? numeric(h, 124, 12);
    const ustarPrefix = h.toString("ascii", 257, 263) === "ustar\0" ? text(h, 345, 155) : "";
    const name = text(h, 0, 100);
    const path = this.next.path ?? (ustarPrefix ? `${ustarPrefix}/${name}` : name);
    const linkpath = this.next.linkpath ?? text(h, 157, 100);
    this.remaining = size;
    this.padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if ("xgLK".includes(typeflag)) {
      if (size > MAX_META_BYTES)
        throw new UnsafeArchiveError(`archive has a ${size}-byte metadata header: more than ${MAX_META_BYTES}`);
      this.meta = { typeflag, chunks: [] };
    } else {
      this.next = {};
      // Directories and links carry no data, whatever their size field says.
      if (typeflag !== "0" && typeflag !== "7") {
        this.remaining = 0;
        this.padding = 0;
      }
      this.on.header({ path, typeflag, mode: numeric(h, 100, 8), size: this.remaining, linkpath });
    }
    if (this.remaining === 0) this.endEntry();
  }

  private endEntry(): void {
    const meta = this.meta;
    if (!meta) return this.on.end?.();
    this.meta = undefined;
    const data = Buffer.concat(meta.chunks);
    if (meta.typeflag === "x") {
      const records = paxRecords(data);
      if (records.path !== undefined) this.next.path = records.path;
      if (records.linkpath !== undefined) this.next.linkpath = records.linkpath;
      if (records.size !== undefined) this.next.size = Number(records.size);
    } else if (meta.typeflag === "L") this.next.path = data.toString("utf8").replace(/\0.*$/s, "");
    else if (meta.typeflag === "K") this.next.linkpath = data.toString("utf8").replace(/\0.*$/s, "");
    // 'g' (global pax records: comments, mtimes) changes nothing we read.
  }
}

/**
 * Feeds a tar.gz through `handlers`, inflating only as far as they let it go (a throw stops it).
 * `progress.inflated` counts the bytes inflated, to show a bomb stopped early.
 */
export async function readTarGz(data: Buffer, handlers: TarHandlers, progress = { inflated: 0 }): Promise<void> {
  const reader = new TarReader(handlers);
  const gunzip = createGunzip();
  gunzip.end(data);
  try {
    for await (const chunk of gunzip) {
      progress.inflated += (chunk as Buffer).length;
      reader.push(chunk as Buffer);
      if (reader.done) break;
    }
  } catch (err) {
    if (err instanceof Error && "errno" in err)
      throw new UnsafeArchiveError(`archive is not valid gzip: ${err.message}`);
    throw err;
  } finally {
    gunzip.destroy();
  }
  reader.finish();
}

/** The same, synchronously, for archives already bounded (tests, our own artifacts). */
export function readTarGzSync(data: Buffer, handlers: TarHandlers): void {
  const reader = new TarReader(handlers);
  reader.push(gunzipSync(data));
  reader.finish();
}
