import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeWorkDir, sweepStaleWorkDirs, workBase } from "./work-dir.js";

describe("scratch directories", () => {
  it("sweeps what a dead process left and keeps the living ones'", () => {
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid!;
    const leftover = join(workBase(), String(dead), "git-abc");
    mkdirSync(leftover, { recursive: true });
    const mine = makeWorkDir("git-");
    expect(sweepStaleWorkDirs()).toContain(dead);
    expect(existsSync(join(workBase(), String(dead)))).toBe(false);
    expect(existsSync(mine)).toBe(true);
  });
});
