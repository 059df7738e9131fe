import { describe, expect, it } from "vitest";
import type { ResourceSet } from "../../api/operator/resourceset.js";
import { recordHistory } from "./status.js";

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
const rset = (history?: ReturnType<typeof recordHistory>) =>
  ({ metadata: { name: "apps", namespace: "fleet" }, spec: {}, status: { history } }) as ResourceSet;

describe("ResourceSet status.history (the operator's History.Upsert)", () => {
  it("keeps one snapshot per digest AND outcome: a failure of an applied digest is its own entry, a repeat is counted", () => {
    let h = recordHistory(rset(), {
      digest: "sha256:a",
      status: "ReconciliationSucceeded",
      at: at(0),
      durationMs: 1500,
    });
    h = recordHistory(rset(h), { digest: "sha256:a", status: "ReconciliationFailed", at: at(1), durationMs: 250 });
    expect(h.map((e) => [e.digest, e.lastReconciledStatus, e.totalReconciliations])).toEqual([
      ["sha256:a", "ReconciliationFailed", 1],
      ["sha256:a", "ReconciliationSucceeded", 1],
    ]);
    h = recordHistory(rset(h), {
      digest: "sha256:a",
      status: "ReconciliationSucceeded",
      at: at(2),
      durationMs: 90_000,
      metadata: { inputs: "1", resources: "3", steps: "3" },
    });
    expect(h[0]).toEqual({
      digest: "sha256:a",
      firstReconciled: "2026-01-01T00:00:00Z",
      lastReconciled: "2026-01-01T00:00:02Z",
      lastReconciledDuration: "1m30s",
      lastReconciledStatus: "ReconciliationSucceeded",
      totalReconciliations: 2,
      metadata: { inputs: "1", resources: "3", steps: "3" },
    });
    expect(h).toHaveLength(2);
  });

  it("keeps the five newest snapshots", () => {
    let h: ReturnType<typeof recordHistory> = [];
    for (let i = 0; i < 7; i++)
      h = recordHistory(rset(h), {
        digest: `sha256:${i}`,
        status: "ReconciliationSucceeded",
        at: at(i),
        durationMs: 1,
      });
    expect(h.map((e) => e.digest)).toEqual(["sha256:6", "sha256:5", "sha256:4", "sha256:3", "sha256:2"]);
  });
});
