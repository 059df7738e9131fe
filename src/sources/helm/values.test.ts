import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { effectiveValuesFiles, mergeValues, mergeValuesFiles, ValuesFilesError } from "./values.js";
import { makeWorkDir } from "../../util/work-dir.js";

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

  it("refuse a values file outside the artifact, by relative path or through a link, and read one inside", () => {
    const base = makeWorkDir("flotilla-values-");
    try {
      const root = join(base, "artifact");
      mkdirSync(join(root, "env"), { recursive: true });
      writeFileSync(join(base, "theirs.yaml"), "secret: of-another-tenant\n");
      writeFileSync(join(root, "env/prod.yaml"), "replicas: 3\n");
      symlinkSync(join(base, "theirs.yaml"), join(root, "env/link.yaml"));
      symlinkSync("prod.yaml", join(root, "env/inside.yaml"));
      for (const file of ["../theirs.yaml", "env/link.yaml"]) {
        expect(() => mergeValuesFiles(root, [file], false)).toThrow(ValuesFilesError);
        expect(() => mergeValuesFiles(root, [file], false)).toThrow(
          `values file '${file}' is outside the source artifact`,
        );
      }
      expect(mergeValuesFiles(root, ["env/inside.yaml"], false).values).toEqual({ replicas: 3 });
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
