import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeWorkDir } from "../util/work-dir.js";
import { UnpackedCache } from "./unpacked-cache.js";

const unpackTo = (content: string) => async (tmp: string) => writeFileSync(join(tmp, "file"), content);
const dirs = (root: string) => readdirSync(root).filter((e) => !e.endsWith(".unpacked"));

describe("the unpacked-artifact cache", () => {
  it("reuses a directory only with the marker of its verified unpack; anything else is unpacked anew", async () => {
    const root = makeWorkDir("flotilla-cache-");
    // Planted before any unpack (as the storage-path attack did): no marker, so not trusted.
    mkdirSync(join(root, "sha256-aa"), { recursive: true });
    writeFileSync(join(root, "sha256-aa", "evil.tgz"), "planted");
    const cache = new UnpackedCache(root);
    const lease = await cache.lease("GitRepository/ns/a", "sha256:aa", unpackTo("real"));
    expect(readdirSync(lease.dir)).toEqual(["file"]);
    expect(readFileSync(`${lease.dir}.unpacked`, "utf8")).toBe("sha256:aa");
    let unpacks = 0;
    await cache.lease("GitRepository/ns/b", "sha256:aa", async (tmp) => {
      unpacks++;
      await unpackTo("again")(tmp);
    });
    expect(unpacks).toBe(0);
  });

  it("keeps two revisions per source and nothing else: a long run of revisions leaves the volume flat", async () => {
    const root = makeWorkDir("flotilla-cache-");
    const cache = new UnpackedCache(root);
    for (let i = 0; i < 40; i++) {
      const a = await cache.lease("GitRepository/ns/a", `sha256:a${i}`, unpackTo(`a${i}`));
      a.release();
      const b = await cache.lease("GitRepository/ns/b", `sha256:b${i % 3}`, unpackTo(`b${i}`));
      b.release();
    }
    expect(dirs(root).sort()).toEqual(["sha256-a38", "sha256-a39", "sha256-b0", "sha256-b2"].sort());
    expect(readdirSync(root).length).toBe(8); // each with its marker, no temporary directory left
  });

  it("never collects a directory a reconcile still holds, and does once it is released", async () => {
    const root = makeWorkDir("flotilla-cache-");
    const cache = new UnpackedCache(root);
    const held = await cache.lease("GitRepository/ns/a", "sha256:01", unpackTo("1"));
    for (const d of ["02", "03", "04"]) (await cache.lease("GitRepository/ns/a", `sha256:${d}`, unpackTo(d))).release();
    expect(existsSync(held.dir)).toBe(true);
    held.release();
    held.release(); // idempotent
    cache.collect();
    expect(existsSync(held.dir)).toBe(false);
  });

  it("drops a lease its holder forgot after the hold limit", async () => {
    const root = makeWorkDir("flotilla-cache-");
    const cache = new UnpackedCache(root, { maxHoldMs: 50 });
    const forgotten = await cache.lease("GitRepository/ns/a", "sha256:01", unpackTo("1"));
    for (const d of ["02", "03"]) (await cache.lease("GitRepository/ns/a", `sha256:${d}`, unpackTo(d))).release();
    expect(existsSync(forgotten.dir)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    cache.collect();
    expect(existsSync(forgotten.dir)).toBe(false);
  });

  it("a failed unpack leaves nothing behind and holds nothing", async () => {
    const root = makeWorkDir("flotilla-cache-");
    const cache = new UnpackedCache(root);
    await expect(
      cache.lease("GitRepository/ns/a", "sha256:bad", () => Promise.reject(new Error("refused"))),
    ).rejects.toThrow("refused");
    expect(readdirSync(root)).toEqual([]);
  });
});
