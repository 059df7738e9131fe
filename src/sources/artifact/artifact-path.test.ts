import { describe, expect, it } from "vitest";
import { artifactPath, isArtifactPath } from "./artifact-path.js";
import { InvalidArtifactPathError } from "./errors.js";
import { Storage } from "./storage.js";
import { makeWorkDir } from "../../util/work-dir.js";

describe("artifact paths", () => {
  it("are four plain segments under a kind's directory", () => {
    expect(artifactPath("HelmChart", "team-a", "app", "podinfo-6.5.0.tgz")).toBe(
      "helmchart/team-a/app/podinfo-6.5.0.tgz",
    );
    expect(isArtifactPath("gitrepository/ns/repo/abc.tar.gz")).toBe(true);
  });

  it.each([
    ["../../../.consumer-cache/sha256-1/x-1.0.0.tgz", /path separator/],
    ["..", /is not a name/],
    [".hidden.tgz", /starts with a dot/],
    ["a\\b.tgz", /path separator/],
    ["", /empty/],
    ["x\u0000.tgz", /control character/],
  ])("refuse a file name like %j naming the segment and why", (file, why) => {
    expect(() => artifactPath("HelmChart", "ns", "app", file)).toThrow(InvalidArtifactPathError);
    expect(() => artifactPath("HelmChart", "ns", "app", file)).toThrow(why);
  });

  it.each([
    ".consumer-cache/sha256-abc/chart.tgz",
    "helmchart/ns/app/../../../.consumer-cache/x.tgz",
    "helmchart/ns/app/x.tgz.tmp-1234",
    "helmchart/ns/app",
    "secrets/ns/app/x.tgz",
  ])("recognise %j as no artifact path", (p) => expect(isArtifactPath(p)).toBe(false));

  it("storage refuses to write anywhere but an artifact path", () => {
    const storage = new Storage(makeWorkDir("flotilla-artifact-path-"), "http://127.0.0.1:1");
    expect(() =>
      storage.store("helmchart/ns/app/../../../.consumer-cache/sha256-1/x-1.0.0.tgz", Buffer.from("x"), "1"),
    ).toThrow(InvalidArtifactPathError);
    expect(storage.read({ path: ".consumer-cache/sha256-1/x.tgz", digest: "sha256:0" })).toBeUndefined();
  });
});
