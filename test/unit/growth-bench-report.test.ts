// The growth benchmark's report (bench/support/growth-report.mjs): the least-squares slope per object, a side
// past its cap shown as "> cap, n/N Ready" and left out of the slopes.
import { describe, expect, it } from "vitest";
import { figures, growthTable, leastSquares, slopeTable, timeCell } from "../../bench/support/growth-report.mjs";

const MiB = 1024 * 1024;
const run = (seconds: number, cpu: number, rssMiB: number) => ({
  tool: "t",
  seconds,
  cpu: [cpu],
  rss: [rssMiB * MiB],
  treeRss: rssMiB * MiB,
  flow: new Map([["t get", 2]]),
  load: "1.00 1.00 1.00",
});

describe("growth report", () => {
  it("fits the exact line through points on a line, and refuses fewer than two distinct N", () => {
    const fit = leastSquares([
      [100, 5],
      [500, 21],
      [1000, 41],
    ]);
    expect(fit?.slope).toBeCloseTo(0.04, 10);
    expect(fit?.intercept).toBeCloseTo(1, 10);
    expect(leastSquares([[100, 5]])).toBeUndefined();
    expect(
      leastSquares([
        [100, 5],
        [100, 6],
      ]),
    ).toBeUndefined();
  });

  it("shows a side past its cap as more than the cap with its Ready count, and a ratio floor", () => {
    const capped = figures(
      { ...run(0, 30, 200), seconds: undefined, capped: true, ready: 812, error: "timed out" },
      1000,
    );
    expect(timeCell(capped, 1000, 600)).toBe("> 600 s, 812/1000 Ready");
    const rows = [{ n: 1000, flotilla: figures(run(40, 10, 150), 1000), flux: capped }];
    const [, , row] = growthTable("kustomizations", rows, { flotilla: 600, flux: 600 });
    expect(row).toContain("| 40.0 s | > 600 s, 812/1000 Ready | > 15.00 |");
  });

  it("leaves capped and failed N out of a side's slope", () => {
    const rows = [
      { n: 100, flotilla: figures(run(3, 1, 100), 100), flux: figures(run(12, 10, 100), 100) },
      { n: 500, flotilla: figures(run(11, 5, 140), 500), flux: figures(run(84, 90, 280), 500) },
      {
        n: 1000,
        flotilla: figures(run(21, 10, 190), 1000),
        flux: figures({ ...run(0, 0, 0), seconds: undefined, capped: true, ready: 3, error: "timed out" }, 1000),
      },
    ];
    const time = slopeTable("kustomizations", rows).find((l) => l.startsWith("| time to all Ready"));
    expect(time).toContain("20 ms / object (intercept 1000 ms; N = 100, 500, 1000)");
    expect(time).toContain("180 ms / object (intercept -6000 ms; N = 100, 500)");
  });
});
