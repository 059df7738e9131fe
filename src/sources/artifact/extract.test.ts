import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { type RawEntry, rawHeader, rawTarball, repeatedMember } from "../../../test/support/hostile-archives.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ArtifactLimitError, UnsafeArchiveError } from "./errors.js";
import { extractTarball, limiter } from "./extract.js";
import { readTarGz } from "./tar-reader.js";
import { createTarball } from "./tarball.js";
import { makeWorkDir } from "../../util/work-dir.js";

let work: string;
beforeEach(() => (work = makeWorkDir("flotilla-extract-")));
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe("extracting artifacts", () => {
  it("writes files and directories with their executable bits", async () => {
    const src = join(work, "src");
    mkdirSync(join(src, "bin"), { recursive: true });
    writeFileSync(join(src, "a.yaml"), "a: 1\n");
    writeFileSync(join(src, "bin", "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    const out = join(work, "out");
    const written = await extractTarball(createTarball(src, ["a.yaml", "bin/run.sh"]), out);
    expect(written.map((e) => e.path)).toEqual(["a.yaml", "bin", "bin/run.sh"]);
    expect(readFileSync(join(out, "a.yaml"), "utf8")).toBe("a: 1\n");
    expect(statSync(join(out, "bin", "run.sh")).mode & 0o777).toBe(0o755);
  });

  it.each([["/etc/passwd"], ["../escape.yaml"], ["a/../../escape.yaml"], ["a/.."]])(
    "refuses the whole archive when an entry is named %s",
    async (name) => {
      const out = join(work, "out");
      const data = rawTarball([
        { name: "ok.yaml", content: "ok" },
        { name, content: "bad" },
      ]);
      await expect(extractTarball(data, out)).rejects.toThrow(UnsafeArchiveError);
      expect(existsSync(join(out, "ok.yaml"))).toBe(false);
      expect(existsSync(join(work, "escape.yaml"))).toBe(false);
    },
  );

  it("never writes through a link in the directory that leads outside it", async () => {
    const out = join(work, "out");
    const outside = join(work, "outside");
    mkdirSync(out);
    mkdirSync(outside);
    symlinkSync(outside, join(out, "vendor"));
    symlinkSync(join(outside, "f.yaml"), join(out, "f.yaml"));
    await expect(extractTarball(rawTarball([{ name: "vendor/x.yaml", content: "x" }]), out)).rejects.toThrow(
      UnsafeArchiveError,
    );
    await expect(extractTarball(rawTarball([{ name: "f.yaml", content: "x" }]), out)).rejects.toThrow(
      UnsafeArchiveError,
    );
    expect(existsSync(join(outside, "x.yaml"))).toBe(false);
    expect(existsSync(join(outside, "f.yaml"))).toBe(false);
  });

  it("places entries where the caller says and skips the rest", async () => {
    const data = rawTarball([
      { name: "deploy/app.yaml", content: "app" },
      { name: "docs/readme.md", content: "docs" },
    ]);
    const out = join(work, "out");
    const written = await extractTarball(data, out, {
      place: (e) => (e.path.startsWith("deploy/") ? e.path.slice("deploy/".length) : undefined),
    });
    expect(written.map((e) => e.path)).toEqual(["deploy/app.yaml"]);
    expect(readFileSync(join(out, "app.yaml"), "utf8")).toBe("app");
    expect(existsSync(join(out, "docs"))).toBe(false);
  });
});

describe("refusing hostile archives before writing anything", () => {
  const out = () => join(work, "out");
  const refused = async (entries: RawEntry[], limits?: { maxSize: number; maxFiles: number }) => {
    const err = await extractTarball(rawTarball([{ name: "first.yaml", content: "ok" }, ...entries]), out(), {
      limits,
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(existsSync(join(out(), "first.yaml")), "nothing written").toBe(false);
    return err;
  };

  it.each([
    ["an absolute target", "/etc"],
    ["a target climbing out", "../../outside"],
    ["a target climbing out through a subdirectory", "sub/../../.."],
  ])("refuses a symbolic link with %s", async (_, linkname) => {
    const err = await refused([{ name: "dir/link", type: "2", linkname }]);
    expect(err).toBeInstanceOf(UnsafeArchiveError);
    expect(err!.message).toContain("'dir/link' is a symbolic link leading outside the directory");
  });

  it("accepts a symbolic link that stays inside, without creating it (artifacts hold no links)", async () => {
    const data = rawTarball([
      { name: "a/x.yaml", content: "x" },
      { name: "a/link", type: "2", linkname: "../a/x.yaml" },
    ]);
    await extractTarball(data, out());
    expect(readFileSync(join(out(), "a/x.yaml"), "utf8")).toBe("x");
    expect(existsSync(join(out(), "a/link"))).toBe(false);
  });

  it.each([
    ["1", "a hard link"],
    ["3", "a character device"],
    ["4", "a block device"],
    ["6", "a fifo"],
    ["S", "of unsupported type 'S'"],
  ])("refuses an entry of type %s (%s)", async (type, kind) => {
    const err = await refused([{ name: "special", type, linkname: "first.yaml" }]);
    expect(err).toBeInstanceOf(UnsafeArchiveError);
    expect(err!.message).toBe(`archive entry 'special' is ${kind}; artifacts hold only files and directories`);
  });

  it("refuses more files than --artifact-max-files, naming the limit and the flag", async () => {
    const err = await refused(
      [1, 2, 3].map((i) => ({ name: `f${i}.yaml`, content: "x" })),
      { maxSize: 1024, maxFiles: 3 },
    );
    expect(err).toBeInstanceOf(ArtifactLimitError);
    expect(err!.message).toMatch(/^the artifact holds more than 3 files, the limit set by --artifact-max-files/);
  });

  it("refuses a file larger than --artifact-max-size, and files together larger than it", async () => {
    const limits = { maxSize: 1024, maxFiles: 10 };
    const one = await refused([{ name: "big.bin", content: "x".repeat(1025) }], limits);
    expect(one).toBeInstanceOf(ArtifactLimitError);
    expect(one!.message).toMatch(
      /^the artifact: file 'big\.bin' alone is larger than 1 KiB unpacked, the limit set by --artifact-max-size/,
    );
    const many = await refused(
      [1, 2, 3].map((i) => ({ name: `f${i}`, content: "x".repeat(400) })),
      limits,
    );
    expect(many!.message).toMatch(/^the artifact is larger than 1 KiB unpacked/);
  });

  it("stops a gzip bomb at the header declaring 8 GiB, after inflating a few KiB of it", async () => {
    // ~8 MB of gzip that inflates to 8 GiB: one header declaring the size, then zeros.
    const header = rawHeader({ name: "bomb.bin" }, 8 * 1024 ** 3 - 1);
    const bomb = Buffer.concat([gzipSync(header), repeatedMember(Buffer.alloc(16 * 1024 ** 2), 512)]);
    const progress = { inflated: 0 };
    const err = await readTarGz(bomb, { header: limiter({ maxSize: 1024 ** 3, maxFiles: 10 }) }, progress).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(ArtifactLimitError);
    expect(progress.inflated).toBeLessThan(1024 ** 2);
    await expect(extractTarball(bomb, out())).rejects.toThrow(/file 'bomb\.bin' alone is larger than 1 GiB/);
  });

  it("stops a tar bomb of two million empty files at the file limit, not after reading them all", async () => {
    const block = Buffer.concat(Array(10_000).fill(rawHeader({ name: "f" }, 0)));
    const bomb = repeatedMember(block, 200); // 2,000,000 headers: 1 GB of tar in ~1 MB of gzip
    const progress = { inflated: 0 };
    const err = await readTarGz(bomb, { header: limiter({ maxSize: 1024, maxFiles: 1000 }) }, progress).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err!.message).toMatch(/more than 1000 files/);
    expect(progress.inflated).toBeLessThan(16 * 1024 ** 2);
  });

  it("refuses what is not gzip, and a tar cut off inside an entry", async () => {
    await expect(extractTarball(Buffer.from("not an archive"), out())).rejects.toThrow(/not valid gzip/);
    const cut = gzipSync(Buffer.concat([rawHeader({ name: "a" }, 2000), Buffer.alloc(100, 1)]));
    await expect(extractTarball(cut, out())).rejects.toThrow(/truncated/);
  });
});

describe("reading archives other tools made", () => {
  it.each(["gnu", "pax", "ustar"])("unpacks a %s tar with a path longer than 100 bytes", async (format) => {
    const src = join(work, "src");
    const long = `${"d".repeat(60)}/${"e".repeat(60)}/file-with-a-long-name.yaml`;
    mkdirSync(join(src, long, ".."), { recursive: true });
    writeFileSync(join(src, long), "long: true\n");
    const archive = join(work, "a.tar.gz");
    execFileSync("tar", [`--format=${format}`, "-czf", archive, "-C", src, "."]);
    const out = join(work, "out");
    await extractTarball(readFileSync(archive), out);
    expect(readFileSync(join(out, long), "utf8")).toBe("long: true\n");
  });
});
