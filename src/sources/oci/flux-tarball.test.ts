import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildArtifact, FLUX_DEFAULT_IGNORE_PATHS } from "./flux-tarball.js";
import { readTarball } from "../artifact/tarball.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "flux-tarball-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function tree(root: string) {
  mkdirSync(join(root, "b/nested"), { recursive: true });
  mkdirSync(join(root, ".git"), { recursive: true });
  writeFileSync(join(root, "b/nested/deploy.yaml"), "kind: Deployment\n");
  writeFileSync(join(root, "a.yaml"), "kind: ConfigMap\n");
  writeFileSync(join(root, "B.yaml"), "upper case sorts first\n");
  writeFileSync(join(root, "run.sh"), "#!/bin/sh\n");
  writeFileSync(join(root, ".git/HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(root, "logo.png"), "png");
  chmodSync(join(root, "run.sh"), 0o750);
  chmodSync(join(root, "a.yaml"), 0o640);
  chmodSync(join(root, "B.yaml"), 0o644);
  chmodSync(join(root, "b/nested/deploy.yaml"), 0o644);
  chmodSync(join(root, "b"), 0o755);
  chmodSync(join(root, "b/nested"), 0o755);
  chmodSync(root, 0o755);
  symlinkSync("a.yaml", join(root, "link.yaml"));
}

describe("buildArtifact (flux build artifact's tar.gz)", () => {
  it("is byte-identical for the same tree whatever the files' times", async () => {
    tree(dir);
    const first = await buildArtifact(dir, FLUX_DEFAULT_IGNORE_PATHS);
    utimesSync(join(dir, "a.yaml"), new Date(2001, 1, 1), new Date(2001, 1, 1));
    expect((await buildArtifact(dir, FLUX_DEFAULT_IGNORE_PATHS)).equals(first)).toBe(true);
  });

  it("walks like Go's WalkDir: the root as '.', byte order, dirs without slash, own modes, links and ignored paths left out", async () => {
    tree(dir);
    const entries = readTarball(await buildArtifact(dir, FLUX_DEFAULT_IGNORE_PATHS));
    expect(entries.map((e) => [e.path, e.type, e.mode.toString(8)])).toEqual([
      [".", "directory", "755"],
      ["B.yaml", "file", "644"],
      ["a.yaml", "file", "640"],
      ["b", "directory", "755"],
      ["b/nested", "directory", "755"],
      ["b/nested/deploy.yaml", "file", "644"],
      ["run.sh", "file", "750"],
    ]);
  });

  it("writes Go's USTAR header fields (mtime 0, device numbers 0000000, no names) and only two end blocks", async () => {
    writeFileSync(join(dir, "x"), "1");
    chmodSync(join(dir, "x"), 0o644);
    const tar = gunzipSync(await buildArtifact(dir, []));
    const file = tar.subarray(512, 1024);
    expect(file.toString("ascii", 0, 2)).toBe("x\0");
    expect(file.toString("ascii", 100, 108)).toBe("0000644\0");
    expect(file.toString("ascii", 136, 148)).toBe("00000000000\0");
    expect(file.toString("ascii", 257, 265)).toBe("ustar\x0000");
    expect(file.toString("ascii", 329, 345)).toBe("0000000\x000000000\0");
    expect(tar.length).toBe(512 /* . */ + 512 /* x */ + 512 /* its data */ + 1024);
  });

  it("splits a long name at the last slash that fits, as Go's splitUSTARPath does", async () => {
    const deep = `${"d".repeat(60)}/${"e".repeat(60)}`;
    mkdirSync(join(dir, deep), { recursive: true });
    writeFileSync(join(dir, deep, "f.yaml"), "x");
    const entries = readTarball(await buildArtifact(dir, []));
    expect(entries.map((e) => e.path)).toContain(`${deep}/f.yaml`);
  });

  it("archives a single file inside a directory of mode 0700, as Flux stages it", async () => {
    writeFileSync(join(dir, "only.yaml"), "a: 1\n");
    chmodSync(join(dir, "only.yaml"), 0o600);
    const entries = readTarball(await buildArtifact(join(dir, "only.yaml"), []));
    expect(entries.map((e) => [e.path, e.mode.toString(8)])).toEqual([
      [".", "700"],
      ["only.yaml", "600"],
    ]);
  });

  it("says which path does not exist, and refuses names that need PAX headers by name", async () => {
    await expect(buildArtifact(join(dir, "missing"), [])).rejects.toThrow(
      `source path does not exist: ${join(dir, "missing")}`,
    );
    writeFileSync(join(dir, "café.yaml"), "x");
    await expect(buildArtifact(dir, [])).rejects.toThrow("cannot archive 'café.yaml': the path is not ASCII");
  });

  it("gzips with Go's header: mtime 0 and OS 255", async () => {
    writeFileSync(join(dir, "x"), "1");
    const gz = await buildArtifact(dir, []);
    expect([...gz.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
  });
});
