// charts/flotilla/crds/ holds the CRDs `flotilla install` applies, as `npm run chart:crds` writes them
// from the same source (servedCrds): no file missing, stale or extra.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHART_CRDS_DIR, chartCrdFiles } from "../../../src/cli/chart-crds.js";

describe("charts/flotilla/crds", () => {
  it("are flotilla's CRDs as generated (else: npm run chart:crds)", () => {
    const want = chartCrdFiles();
    expect(readdirSync(CHART_CRDS_DIR).sort(), "run `npm run chart:crds`").toEqual(Object.keys(want).sort());
    for (const [name, text] of Object.entries(want))
      expect(readFileSync(join(CHART_CRDS_DIR, name), "utf8"), `${name} is stale: run \`npm run chart:crds\``).toBe(
        text,
      );
  });
});
