import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { filesIn } from "./artifact-files.js";

describe("filesIn", () => {
  const dir = mkdtempSync(join(tmpdir(), "flotilla-files-"));
  mkdirSync(join(dir, "apps/podinfo/tenant1"), { recursive: true });
  writeFileSync(join(dir, "apps/podinfo/file.yaml"), "a: 1\n");
  const files = filesIn(dir);

  it("finds directories of the artifact, not files or missing ones", () => {
    expect(files.hasDirectory("./apps/podinfo/tenant1")).toBe(true);
    expect(files.hasDirectory("apps/podinfo/tenant2")).toBe(false);
    expect(files.hasDirectory("./apps/podinfo/file.yaml")).toBe(false);
    expect(files.hasDirectory("./")).toBe(true);
  });

  it("refuses a path that leaves the artifact instead of looking outside it, through a symlink too", () => {
    expect(() => files.hasDirectory("./apps/../../etc")).toThrow(/leaves the source's artifact/);
    symlinkSync("/", join(dir, "apps/podinfo/escape"));
    expect(() => files.hasDirectory("./apps/podinfo/escape")).toThrow(/leaves the source's artifact/);
    expect(() => files.hasDirectory("./apps/podinfo/escape/etc")).toThrow(/leaves the source's artifact/);
  });
});
