import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { DEFAULT_ARTIFACT_LIMITS } from "../artifact/limits.js";
import { createTarball } from "../artifact/tarball.js";
import { makeWorkDir } from "../../util/work-dir.js";
import { inspectChartArchive, NotAChartError } from "./chart-archive.js";
import { chartFileName, chartNameProblem, chartVersionProblem } from "./chart-identity.js";

function archive(files: Record<string, string>): Buffer {
  const root = makeWorkDir("flotilla-chart-archive-");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return createTarball(root, Object.keys(files));
}
const inspect = (data: Buffer) => inspectChartArchive(data, DEFAULT_ARTIFACT_LIMITS, "chart x-1.0.0");

describe("what is a chart", () => {
  it("a gzipped tar with one top directory holding a valid Chart.yaml", async () => {
    const data = archive({
      "podinfo/Chart.yaml": "apiVersion: v2\nname: podinfo\nversion: 6.5.0\n",
      "podinfo/values.yaml": "",
    });
    await expect(inspect(data)).resolves.toEqual({ name: "podinfo", version: "6.5.0" });
  });

  it.each([
    ["a JSON answer", gzipSync(Buffer.from('{"secret":"x"}')), /not a chart archive/],
    ["plain text", Buffer.from("hello"), /not a chart archive/],
    ["an archive without Chart.yaml", archive({ "app/values.yaml": "a: 1\n" }), /holds no Chart\.yaml/],
    [
      "a Chart.yaml whose name is a path",
      archive({ "app/Chart.yaml": "apiVersion: v2\nname: ../../x\nversion: 1.0.0\n" }),
      /a chart name is a name, not a path/,
    ],
    [
      "a version that is not semver",
      archive({ "app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 1/2\n" }),
      /not a semantic version/,
    ],
    [
      "two top directories",
      archive({ "a/Chart.yaml": "apiVersion: v2\nname: a\nversion: 1.0.0\n", "b/x": "" }),
      /more than one top directory/,
    ],
  ])("not %s", async (_what, data, why) => {
    const err = await inspect(data).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotAChartError);
    expect((err as Error).message).toMatch(why);
  });
});

describe("chart names and versions", () => {
  it("as Helm validates them: a name is one segment, a version is semver", () => {
    expect(chartNameProblem("podinfo")).toBeUndefined();
    expect(chartNameProblem("../../../.consumer-cache/sha256-1/aaa")).toMatch(/path separator/);
    expect(chartNameProblem("..")).toMatch(/not a name/);
    expect(chartVersionProblem("v1.2")).toBeUndefined();
    expect(chartVersionProblem("1.0.0-rc.1+build.5")).toBeUndefined();
    expect(chartVersionProblem("1.0.0/../../x")).toMatch(/not a semantic version/);
    expect(chartFileName("podinfo", "6.5.0")).toBe("podinfo-6.5.0.tgz");
    expect(() => chartFileName("a/b", "1.0.0")).toThrow(/path separator/);
  });
});
