// Archives as an attacker writes them, for the tests of extraction: any name, any type flag, any
// declared size — and gzip bombs made of one small member repeated (Node inflates concatenated
// members in turn), so gigabytes of tar cost a few megabytes of test data.
import { gzipSync } from "node:zlib";

export interface RawEntry {
  name: string;
  content?: string;
  /** Tar type flag: "0" file, "1" hard link, "2" symlink, "3"/"4" devices, "5" directory, "6" fifo. */
  type?: string;
  linkname?: string;
  /** The size field, when it should differ from the content's (a bomb's header). */
  size?: number;
}

/** One 512-byte ustar header, checksummed. */
export function rawHeader(e: RawEntry, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(e.name, 0, 100, "utf8");
  h.write("0000644\0", 100);
  h.write(`${size.toString(8).padStart(11, "0")}\0`, 124);
  h.write("        ", 148);
  h.write(e.type ?? "0", 156);
  h.write(e.linkname ?? "", 157, 100, "utf8");
  h.write("ustar\0", 257);
  h.write(
    `${h
      .reduce((a, b) => a + b, 0)
      .toString(8)
      .padStart(6, "0")}\0 `,
    148,
  );
  return h;
}

/** A tar.gz with entries named and typed as given, whatever the names: what a hostile archive holds. */
export function rawTarball(entries: RawEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.content ?? "");
    blocks.push(rawHeader(e, e.size ?? body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}

/** A gzip stream of `members` copies of one member: Node inflates concatenated members in turn. */
export const repeatedMember = (block: Buffer, members: number) => Buffer.concat(Array(members).fill(gzipSync(block)));
