import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UnsafeArchiveError } from "./errors.js";
import { extractTarball } from "./extract.js";
import { createTarball } from "./tarball.js";

/** A tar.gz with entries named as given, whatever the names: what a hostile archive holds. */
function rawTarball(entries: { name: string; content?: string; type?: "0" | "5" }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.content ?? "");
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100, "utf8");
    h.write("0000644\0", 100);
    h.write(`${body.length.toString(8).padStart(11, "0")}\0`, 124);
    h.write("        ", 148);
    h.write(e.type ?? "0", 156);
    h.write("ustar\0", 257);
    h.write(
      `${h
        .reduce((a, b) => a + b, 0)
        .toString(8)
        .padStart(6, "0")}\0 `,
      148,
    );
    blocks.push(h, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}

let work: string;
beforeEach(() => (work = mkdtempSync(join(tmpdir(), "flotilla-extract-"))));
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe("extracting artifacts", () => {
  it("writes files and directories with their executable bits", () => {
    const src = join(work, "src");
    mkdirSync(join(src, "bin"), { recursive: true });
    writeFileSync(join(src, "a.yaml"), "a: 1\n");
    writeFileSync(join(src, "bin", "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    const out = join(work, "out");
    const written = extractTarball(createTarball(src, ["a.yaml", "bin/run.sh"]), out);
    expect(written.map((e) => e.path)).toEqual(["a.yaml", "bin", "bin/run.sh"]);
    expect(readFileSync(join(out, "a.yaml"), "utf8")).toBe("a: 1\n");
    expect(statSync(join(out, "bin", "run.sh")).mode & 0o777).toBe(0o755);
  });

  it.each([["/etc/passwd"], ["../escape.yaml"], ["a/../../escape.yaml"], ["a/.."]])(
    "refuses the whole archive when an entry is named %s",
    (name) => {
      const out = join(work, "out");
      const data = rawTarball([
        { name: "ok.yaml", content: "ok" },
        { name, content: "bad" },
      ]);
      expect(() => extractTarball(data, out)).toThrow(UnsafeArchiveError);
      expect(existsSync(join(out, "ok.yaml"))).toBe(false);
      expect(existsSync(join(work, "escape.yaml"))).toBe(false);
    },
  );

  it("never writes through a link in the directory that leads outside it", () => {
    const out = join(work, "out");
    const outside = join(work, "outside");
    mkdirSync(out);
    mkdirSync(outside);
    symlinkSync(outside, join(out, "vendor"));
    symlinkSync(join(outside, "f.yaml"), join(out, "f.yaml"));
    expect(() => extractTarball(rawTarball([{ name: "vendor/x.yaml", content: "x" }]), out)).toThrow(
      UnsafeArchiveError,
    );
    expect(() => extractTarball(rawTarball([{ name: "f.yaml", content: "x" }]), out)).toThrow(UnsafeArchiveError);
    expect(existsSync(join(outside, "x.yaml"))).toBe(false);
    expect(existsSync(join(outside, "f.yaml"))).toBe(false);
  });

  it("places entries where the caller says and skips the rest", () => {
    const data = rawTarball([
      { name: "deploy/app.yaml", content: "app" },
      { name: "docs/readme.md", content: "docs" },
    ]);
    const out = join(work, "out");
    const written = extractTarball(data, out, (e) =>
      e.path.startsWith("deploy/") ? e.path.slice("deploy/".length) : undefined,
    );
    expect(written.map((e) => e.path)).toEqual(["deploy/app.yaml"]);
    expect(readFileSync(join(out, "app.yaml"), "utf8")).toBe("app");
    expect(existsSync(join(out, "docs"))).toBe(false);
  });
});
