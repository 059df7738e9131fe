import { describe, expect, it } from "vitest";
import { filterTags } from "./provider-filters.js";

const tags = ["v1.0.0", "1.1.0", "1.10.0", "1.2.0", "2.0.0-rc.1", "latest", "main-abc"];

describe("ResourceSetInputProvider filter (the operator's internal/filtering)", () => {
  it("without semver: tags in reverse lexical order, up to the limit (default 100)", () => {
    expect(filterTags(tags, {})).toEqual(["v1.0.0", "main-abc", "latest", "2.0.0-rc.1", "1.2.0", "1.10.0", "1.1.0"]);
    expect(filterTags(tags, { limit: 2 })).toEqual(["v1.0.0", "main-abc"]);
  });

  it("with semver: the matching versions newest first, prereleases only when the constraint names one", () => {
    expect(filterTags(tags, { semver: ">=1.0.0" })).toEqual(["1.10.0", "1.2.0", "1.1.0", "v1.0.0"]);
    expect(filterTags(tags, { semver: ">=2.0.0-0" })).toEqual(["2.0.0-rc.1"]);
  });

  it("include and exclude patterns apply before the order; the last of the include fields set wins", () => {
    expect(filterTags(tags, { includeTag: "^1\\.", excludeTag: "10" })).toEqual(["1.2.0", "1.1.0"]);
    expect(filterTags(tags, { includeBranch: "^main", includeTag: "^latest$" })).toEqual(["latest"]);
  });

  it("a pattern or constraint that does not parse is refused naming the field", () => {
    expect(() => filterTags(tags, { excludeTag: "(" })).toThrow(/^invalid excludeTag regex: /);
  });
});
