import { describe, expect, it } from "vitest";
import { effectiveValuesFiles, mergeValues } from "./values.js";

describe("values files", () => {
  it("merge maps deeply and replace everything else, later files winning", () => {
    expect(mergeValues({ a: { b: 1, c: [1] }, d: 1 }, { a: { c: [2], e: 3 }, d: { x: 1 } })).toEqual({
      a: { b: 1, c: [2], e: 3 },
      d: { x: 1 },
    });
  });

  it("treat a lone values.yaml as the chart's defaults (nothing to merge)", () => {
    expect(effectiveValuesFiles(["./values.yaml"])).toEqual([]);
    expect(effectiveValuesFiles(["values.yaml", "prod.yaml"])).toEqual(["values.yaml", "prod.yaml"]);
  });
});
