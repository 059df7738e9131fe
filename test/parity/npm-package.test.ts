// The package as npm ships it (`npm pack`, what `npm install -g` and `npx` unpack): bin/ and dist/ are
// in it, nothing of the tests is, and the unpacked CLI runs from outside the repository. Packed with
// --ignore-scripts because `prepare` (the build) already ran for this checkout; the dependencies come
// from this checkout's node_modules, as npm would install them (no registry is reachable from tests).
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";

describe("the npm package", () => {
  it("packs bin/ and dist/, and its CLI runs unpacked elsewhere", () => {
    const dir = makeWorkDir("flotilla-pack-");
    const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], {
      encoding: "utf8",
    });
    const [packed] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
    const files = packed!.files.map((f) => f.path);
    expect(files).toContain("bin/flotilla.js");
    expect(files).toContain("dist/cli/main.js");
    expect(files).toContain("package.json");
    expect(files.filter((f) => /\.test\.js$|^test\/|^src\//.test(f))).toEqual([]);

    execFileSync("tar", ["-xzf", join(dir, packed!.filename), "-C", dir]);
    symlinkSync(resolve("node_modules"), join(dir, "package", "node_modules"));
    expect(readdirSync(join(dir, "package"))).toContain("dist");
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [join(dir, "package", "bin", "flotilla.js"), ...args], {
        encoding: "utf8",
        cwd: dir,
      });
    const version = run("--version");
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const exported = run("create", "tenant", "dev-team", "--with-namespace=apps", "--export");
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stdout).toContain("name: gotk:apps:reconciler\n");
  });
});
