import { describe, expect, it } from "vitest";
import { goDuration, HISTORY_MAX_SIZE, upsertHistory } from "./history.js";

const at = (min: number) => new Date(Date.UTC(2026, 10, 21, 12, min, 0));

describe("status.history", () => {
  it("starts with one snapshot counting one reconciliation", () => {
    const h = upsertHistory(undefined, {
      digest: "sha256:a",
      status: "ReconciliationSucceeded",
      at: at(0),
      durationMs: 1500,
    });
    expect(h).toEqual([
      {
        digest: "sha256:a",
        firstReconciled: "2026-11-21T12:00:00Z",
        lastReconciled: "2026-11-21T12:00:00Z",
        lastReconciledDuration: "1.5s",
        lastReconciledStatus: "ReconciliationSucceeded",
        totalReconciliations: 1,
      },
    ]);
  });

  it("counts a repeat of the same set and outcome on the same snapshot, keeping when it was first seen", () => {
    let h = upsertHistory(undefined, {
      digest: "sha256:a",
      status: "ReconciliationSucceeded",
      at: at(0),
      durationMs: 10,
    });
    h = upsertHistory(h, { digest: "sha256:a", status: "ReconciliationSucceeded", at: at(5), durationMs: 10 });
    expect(h).toHaveLength(1);
    expect(h[0]).toMatchObject({
      totalReconciliations: 2,
      firstReconciled: "2026-11-21T12:00:00Z",
      lastReconciled: "2026-11-21T12:05:00Z",
    });
  });

  it("adds a snapshot when the same set has a different outcome", () => {
    let h = upsertHistory(undefined, {
      digest: "sha256:a",
      status: "ReconciliationSucceeded",
      at: at(0),
      durationMs: 10,
    });
    h = upsertHistory(h, { digest: "sha256:a", status: "HealthCheckFailed", at: at(1), durationMs: 10 });
    expect(h.map((s) => s.lastReconciledStatus)).toEqual(["HealthCheckFailed", "ReconciliationSucceeded"]);
  });

  it("moves a recurring earlier snapshot to the front", () => {
    let h = upsertHistory(undefined, {
      digest: "sha256:a",
      status: "ReconciliationSucceeded",
      at: at(0),
      durationMs: 10,
    });
    h = upsertHistory(h, { digest: "sha256:b", status: "ReconciliationSucceeded", at: at(1), durationMs: 10 });
    h = upsertHistory(h, { digest: "sha256:a", status: "ReconciliationSucceeded", at: at(2), durationMs: 10 });
    expect(h.map((s) => [s.digest, s.totalReconciliations])).toEqual([
      ["sha256:a", 2],
      ["sha256:b", 1],
    ]);
  });

  it(`keeps the newest ${HISTORY_MAX_SIZE}`, () => {
    let h = upsertHistory(undefined, {
      digest: "sha256:0",
      status: "ReconciliationSucceeded",
      at: at(0),
      durationMs: 1,
    });
    for (let i = 1; i < 8; i++)
      h = upsertHistory(h, { digest: `sha256:${i}`, status: "ReconciliationSucceeded", at: at(i), durationMs: 1 });
    expect(h.map((s) => s.digest)).toEqual(["sha256:7", "sha256:6", "sha256:5", "sha256:4", "sha256:3"]);
  });

  it("writes durations the way Go prints them", () => {
    expect(goDuration(0)).toBe("0s");
    expect(goDuration(250)).toBe("250ms");
    expect(goDuration(61_500)).toBe("1m1.5s");
    expect(goDuration(3_600_000)).toBe("1h0m0s");
  });
});
