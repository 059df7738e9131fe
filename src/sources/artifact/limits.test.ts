import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ArtifactLimitError } from "./errors.js";
import { checkArtifactFiles, formatBytes } from "./limits.js";
import { makeWorkDir } from "../../util/work-dir.js";

let dir: string;
beforeEach(() => {
  dir = makeWorkDir("flotilla-limits-");
  for (const [name, size] of [
    ["a", 10],
    ["b", 600],
    ["c", 600],
  ] as const)
    writeFileSync(join(dir, name), "x".repeat(size));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("artifact limits where an artifact is made", () => {
  const what = "the repository at revision 'main@sha1:abc'";

  it("pass a checkout within both limits", () => {
    expect(() => checkArtifactFiles(dir, ["a", "b", "c"], { maxSize: 2000, maxFiles: 3 }, what)).not.toThrow();
  });

  it("refuse more files than the limit, naming it and its flag", () => {
    expect(() => checkArtifactFiles(dir, ["a", "b", "c"], { maxSize: 2000, maxFiles: 2 }, what)).toThrow(
      new ArtifactLimitError(
        `${what} holds more than 2 files, the limit set by --artifact-max-files; split the repository, exclude files with .sourceignore or spec.ignore, or raise the limit`,
      ),
    );
  });

  it("refuse one file over the size limit by name, and files together over it", () => {
    expect(() => checkArtifactFiles(dir, ["b"], { maxSize: 500, maxFiles: 9 }, what)).toThrow(
      /file 'b' alone is larger than 500 bytes unpacked, the limit set by --artifact-max-size/,
    );
    expect(() => checkArtifactFiles(dir, ["b", "c"], { maxSize: 1024, maxFiles: 9 }, what)).toThrow(
      /^the repository at revision 'main@sha1:abc' is larger than 1 KiB unpacked/,
    );
  });

  it("say sizes the way the flag takes them", () => {
    expect([formatBytes(1024 ** 3), formatBytes(1536), formatBytes(100)]).toEqual(["1 GiB", "1.5 KiB", "100 bytes"]);
  });
});
