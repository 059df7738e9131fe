import { describe, expect, it } from "vitest";
import { maxSatisfying, withMetadata } from "./semver.js";

const versions = [
  "0.9.0",
  "1.0.0-alpha",
  "1.0.0",
  "1.2.3",
  "1.2.9",
  "1.3.0",
  "1.10.0",
  "2.0.0-rc.1",
  "2.0.0",
  "2.1.0",
  "v3.0.0",
];

describe("semver constraints (Masterminds v3 semantics)", () => {
  it.each([
    ["*", "v3.0.0"],
    [">=1.0.0", "v3.0.0"],
    ["1.x", "1.10.0"],
    ["1.2.x", "1.2.9"],
    ["^1.2", "1.10.0"],
    ["^2", "2.1.0"],
    ["~1.2", "1.2.9"],
    ["~1.2.3", "1.2.9"],
    ["<2.0.0", "1.10.0"],
    ["<=1.2.x", "1.2.9"],
    ["1.2 - 1.3", "1.3.0"],
    [">1.0.0 <1.3.0", "1.2.9"],
    ["1.0.0 || >=2.0.0 <2.1.0", "2.0.0"],
    [">=1.0.0-alpha <2.0.0", "1.10.0"],
    [">=2.0.0-rc.0 <2.0.0", undefined], // "<2.0.0" names no prerelease, so rc.1 fails it
    ["!=2.1.0, >=2", "v3.0.0"],
    [">=4", undefined],
  ])("%s picks %s", (constraint, expected) => {
    expect(maxSatisfying(versions, constraint)).toBe(expected);
  });

  it("excludes prereleases unless the comparator names one", () => {
    expect(maxSatisfying(["1.0.0-alpha", "1.0.0-beta"], ">=0.1.0")).toBeUndefined();
    expect(maxSatisfying(["1.0.0-alpha", "1.0.0-beta"], ">=1.0.0-alpha")).toBe("1.0.0-beta");
    expect(maxSatisfying(["1.0.0-alpha.2", "1.0.0-alpha.10"], ">=1.0.0-0")).toBe("1.0.0-alpha.10");
  });
});

describe("build metadata", () => {
  it("replace a chart version's build metadata as Masterminds' SetMetadata does", () => {
    expect(withMetadata("1.2.0", "abcdef123456.2")).toBe("1.2.0+abcdef123456.2");
    expect(withMetadata("1.2.0-rc.1+old", "3")).toBe("1.2.0-rc.1+3");
  });
});
