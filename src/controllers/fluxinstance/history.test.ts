import { describe, expect, it } from "vitest";
import type { Snapshot } from "../../api/meta/history.js";
import type { FluxInstance } from "../../api/operator/fluxinstance.js";
import { instanceHistory } from "./history.js";

const REV = `v2.9.5@sha256:${"a".repeat(64)}`;
const fi = (history?: Snapshot[]): FluxInstance => ({
  apiVersion: "fluxcd.controlplane.io/v1",
  kind: "FluxInstance",
  metadata: { name: "flux", namespace: "flux-system" },
  spec: { distribution: { version: "2.x", registry: "ghcr.io/fluxcd" } },
  ...(history ? { status: { history } } : {}),
});
const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 3, 0, s));

describe("FluxInstance status.history (the operator's History.Upsert)", () => {
  it("keys a reconcile that built a revision by the revision's digest, with the Flux version as metadata", () => {
    const h = instanceHistory(fi(), {
      reason: "ReconciliationSucceeded",
      revision: REV,
      startedMs: at(0).getTime() - 1500,
      at: at(0),
    });
    expect(h).toEqual([
      {
        digest: `sha256:${"a".repeat(64)}`,
        firstReconciled: "2026-11-28T03:00:00Z",
        lastReconciled: "2026-11-28T03:00:00Z",
        lastReconciledDuration: "1.5s",
        lastReconciledStatus: "ReconciliationSucceeded",
        totalReconciliations: 1,
        metadata: { flux: "v2.9.5" },
      },
    ]);
  });

  it("counts a repeat of the same digest and outcome in one snapshot, and puts a new outcome in front", () => {
    const ok = { reason: "ReconciliationSucceeded", revision: REV, startedMs: at(0).getTime() };
    const once = instanceHistory(fi(), { ...ok, at: at(1) });
    const twice = instanceHistory(fi(once), { ...ok, at: at(9) });
    expect(twice).toHaveLength(1);
    expect(twice[0]).toMatchObject({
      totalReconciliations: 2,
      firstReconciled: "2026-11-28T03:00:01Z",
      lastReconciled: "2026-11-28T03:00:09Z",
    });
    const failed = instanceHistory(fi(twice), { ...ok, reason: "ReconciliationFailed", at: at(20) });
    expect(failed.map((s) => [s.lastReconciledStatus, s.totalReconciliations])).toEqual([
      ["ReconciliationFailed", 1],
      ["ReconciliationSucceeded", 2],
    ]);
    // Back to the earlier outcome: that snapshot moves to the front, counted once more.
    const again = instanceHistory(fi(failed), { ...ok, at: at(30) });
    expect(again.map((s) => [s.lastReconciledStatus, s.totalReconciliations])).toEqual([
      ["ReconciliationSucceeded", 3],
      ["ReconciliationFailed", 1],
    ]);
  });

  it("keys a reconcile stopped before a revision (the operator's build failure) by the spec's digest, without metadata", () => {
    const [s] = instanceHistory(fi(), { reason: "MultitenancyNotEnforced", startedMs: at(0).getTime(), at: at(0) });
    expect(s!.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(s!.digest).not.toBe(`sha256:${"a".repeat(64)}`);
    expect(s!.metadata).toBeUndefined();
  });

  it("keeps the five newest snapshots", () => {
    let h = fi().status?.history;
    for (let i = 0; i < 7; i++)
      h = instanceHistory(fi(h), {
        reason: "ReconciliationSucceeded",
        revision: `v2.9.5@sha256:${String(i).repeat(64)}`,
        startedMs: 0,
        at: at(i),
      });
    expect(h!.map((s) => s.digest.slice(7, 8))).toEqual(["6", "5", "4", "3", "2"]);
  });
});
