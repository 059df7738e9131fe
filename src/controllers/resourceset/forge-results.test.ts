import { describe, expect, it } from "vitest";
import {
  forgeResultLimit,
  gitlabSlug,
  nextPageOfLink,
  restoreSkipped,
  resultMap,
  selectTags,
} from "./forge-results.js";
import { inputId } from "./inputs.js";

const tag = (name: string, sha = `sha-${name}`) => ({ name, result: { id: inputId(name), sha, tag: name } });

describe("Git forge input results (the operator's internal/gitprovider)", () => {
  it("exports a result's fields, leaving empty ones out, with the id adler32 of the name", () => {
    expect(resultMap({ id: inputId("main"), sha: "abc", branch: "main", labels: [] })).toEqual({
      id: "68878758",
      sha: "abc",
      branch: "main",
    });
    expect(resultMap({ id: "4", sha: "d", branch: "fix", title: "Fix", author: "ann", labels: ["deploy"] })).toEqual({
      id: "4",
      sha: "d",
      branch: "fix",
      title: "Fix",
      author: "ann",
      labels: ["deploy"],
    });
  });

  it("selects tags newest first by semver or reverse name, after include/exclude, up to the limit", () => {
    const tags = ["v1.0.0", "v1.2.0", "v1.10.0", "latest", "v2.0.0-rc.1"].map((t) => tag(t));
    expect(selectTags(tags, { semver: ">=1.0.0", limit: 2 }).map((r) => r.tag)).toEqual(["v1.10.0", "v1.2.0"]);
    expect(selectTags(tags, { excludeTag: "^latest$" }).map((r) => r.tag)).toEqual([
      "v2.0.0-rc.1",
      "v1.2.0",
      "v1.10.0",
      "v1.0.0",
    ]);
    // A name listed twice keeps its last commit.
    expect(selectTags([tag("v1", "old"), tag("v1", "new")], {}).map((r) => r.sha)).toEqual(["new", "new"]);
  });

  it("refuses a limit above 10,000 by name", () => {
    expect(forgeResultLimit({})).toBe(100);
    expect(() => forgeResultLimit({ limit: 10_001 })).toThrow(
      "spec.filter.limit: result limit 10001 exceeds maximum of 10000",
    );
  });

  it("skip.labels freezes a labelled request at what was exported, drops a new one, and `!label` skips requests without it", () => {
    const fresh = [
      { id: "1", sha: "new1", branch: "a", labels: ["hold"] },
      { id: "2", sha: "new2", branch: "b", labels: ["hold"] },
      { id: "3", sha: "new3", branch: "c", labels: [] },
    ];
    const previous = [{ id: "1", sha: "old1", branch: "a", env: "x" }];
    expect(restoreSkipped(fresh, ["hold"], previous)).toEqual([
      { id: "1", sha: "old1", branch: "a", labels: ["hold"] },
      { id: "3", sha: "new3", branch: "c", labels: [] },
    ]);
    expect(restoreSkipped(fresh, ["!hold"], previous).map((r) => r.id)).toEqual(["1", "2"]);
    expect(restoreSkipped(fresh, [], previous)).toBe(fresh);
  });

  it("reads the next page from a Link header and slugs names as GitLab does", () => {
    expect(
      nextPageOfLink(
        '<https://h/api/v3/repos/o/r/branches?per_page=100&page=3>; rel="next", <https://h/x?page=9>; rel="last"',
      ),
    ).toBe(3);
    expect(nextPageOfLink('<https://h/x?page=1>; rel="prev"')).toBe(0);
    expect(gitlabSlug("Feature/Ünicode_Branch-")).toBe("feature--nicode-branch");
  });
});
