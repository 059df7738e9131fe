import { describe, expect, it } from "vitest";
import { withMetadata } from "../../controllers/helmchart/build.js";
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

  it("replace a chart version's build metadata as Masterminds' SetMetadata does", () => {
    expect(withMetadata("1.2.0", "abcdef123456.2")).toBe("1.2.0+abcdef123456.2");
    expect(withMetadata("1.2.0-rc.1+old", "3")).toBe("1.2.0-rc.1+3");
  });
});
