// The fan-out benchmark's growth checks (bench/support/fanout-growth.mjs): more tenant planes are only started
// when their measured memory fits with 2 GiB to spare, and the slope per cluster is fitted over the runs with N ≥ 1.
import { describe, expect, it } from "vitest";
import { fanoutGrowthLines, fitFor } from "../../bench/support/fanout-growth.mjs";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const mem = { management: 300 * MiB, tenants: 4, perTenant: 273 * MiB, etcd: 70 * MiB };

describe("fan-out growth", () => {
  it("lets 28 more planes of 273 MiB grow into 19 GiB available and stops them in 9 GiB", () => {
    const roomy = fitFor(28, mem, 19 * GiB);
    expect(roomy.fits).toBe(true);
    expect(roomy.line).toBe("28 more tenant plane(s) × 273 MiB (PSS per plane at 4) = 7.5 GiB; MemAvailable 19.0 GiB");
    expect(fitFor(28, mem, 9 * GiB).fits).toBe(false);
  });

  it("fits the per-cluster slope over the runs with tenant planes, leaving the 0-plane baseline out", () => {
    const run = (n: number, commitS: number) => ({
      n,
      commitReadyS: commitS,
      createReadyS: commitS,
      settledRss: (100 + 2 * n) * MiB,
      idle: { mgmtCtl: 10 + n, tenantCtl: 11 * n },
      mem: n ? { ...mem, tenants: n } : undefined,
      available: 19 * GiB,
    });
    const lines = fanoutGrowthLines([run(0, 99), run(1, 0.5), run(2, 0.6), run(4, 0.8)]);
    expect(lines.find((l) => l.startsWith("| commit → all Ready"))).toBe(
      "| commit → all Ready | 100.00 ms / cluster | 400.0 ms | 1, 2, 4 |",
    );
    expect(lines.find((l) => l.startsWith("| controller settled RSS"))).toContain("2.00 MiB / cluster");
    expect(lines.find((l) => l.startsWith("| controller idle requests"))).toContain("12.00 requests/min / cluster");
    expect(lines.filter((l) => l.startsWith("| 1 | 273 MiB |"))).toHaveLength(1);
  });
});
