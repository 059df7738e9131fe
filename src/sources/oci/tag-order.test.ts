import { describe, expect, it } from "vitest";
import { newestFirst } from "./tag-order.js";

describe("newestFirst", () => {
  it("puts semver tags first by version (a prerelease below its release), then the rest in reverse order", () => {
    expect(newestFirst(["1.9.0", "latest", "v1.10.0", "1.10.0-rc.1", "main", "0.1.0"])).toEqual([
      "v1.10.0",
      "1.10.0-rc.1",
      "1.9.0",
      "0.1.0",
      "main",
      "latest",
    ]);
  });
});
