import { describe, expect, it } from "vitest";
import { importCycles, importGraph } from "./source-graph.js";

describe("src/ import graph", () => {
  it("has no import cycles, type-only imports included", () => {
    const cycles = importCycles(importGraph()).map((files) => files.join(" ↔ "));
    expect(cycles, "each line is a set of files that import each other").toEqual([]);
  });

  it("finds a cycle when there is one (the checker itself works)", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts", "d.ts"]],
      ["e.ts", []],
    ]);
    expect(importCycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"], ["d.ts"]]);
  });
});
