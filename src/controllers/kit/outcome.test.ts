import { describe, expect, it } from "vitest";
import type { Condition } from "../../api/meta/conditions.js";
import { isFlotillaError } from "../../util/errors.js";
import { asFailure, ReconcileFailure } from "./failure.js";
import { finishedConditions, handledAt, isWait, nextRun, progressing } from "./outcome.js";

const at = "2026-01-01T00:00:00Z";
const condition = (type: string, status: Condition["status"], reason = "Any"): Condition => ({
  type,
  status,
  reason,
  message: "",
  lastTransitionTime: at,
});
const byType = (conditions: Condition[], type: string) => conditions.find((c) => c.type === type);
const success = { reason: "Succeeded", message: "stored artifact" };

describe("the conditions a finished reconcile leaves", () => {
  it("a success is Ready=True with the kind's reason, without Reconciling or Stalled, other conditions kept", () => {
    const before = [condition("Healthy", "True"), condition("Reconciling", "True"), condition("Stalled", "True")];
    const after = finishedConditions(before, 3, success);
    expect(after.map((c) => c.type)).toEqual(["Ready", "Healthy"]);
    expect(byType(after, "Ready")).toMatchObject({ status: "True", ...success, observedGeneration: 3 });
  });

  it("a failure is Ready=False with its reason and message, and not Stalled", () => {
    const after = finishedConditions(
      [condition("Stalled", "True")],
      2,
      new ReconcileFailure("BuildFailed", "bad yaml"),
    );
    expect(byType(after, "Ready")).toMatchObject({ status: "False", reason: "BuildFailed", message: "bad yaml" });
    expect(byType(after, "Stalled")).toBeUndefined();
  });

  it("a stalled failure is Stalled=True with the same reason and message", () => {
    const failure = new ReconcileFailure("AccessDenied", "blocked", { stalled: true });
    const after = finishedConditions([], 1, failure);
    expect(byType(after, "Stalled")).toMatchObject({ status: "True", reason: "AccessDenied", message: "blocked" });
  });

  it("a failure keeps the attempt's Reconciling as ProgressingWithRetry, its transition time unchanged", () => {
    const failure = new ReconcileFailure("HealthCheckFailed", "timeout");
    const after = finishedConditions([condition("Reconciling", "True", "Progressing")], 1, failure);
    expect(byType(after, "Reconciling")).toMatchObject({
      status: "True",
      reason: "ProgressingWithRetry",
      lastTransitionTime: at,
    });
  });

  it("new work is Reconciling=True and Ready=Unknown", () => {
    const after = progressing([condition("Ready", "True")], 4, "Detecting drift");
    expect(byType(after, "Reconciling")).toMatchObject({
      status: "True",
      reason: "Progressing",
      message: "Detecting drift",
    });
    expect(byType(after, "Ready")).toMatchObject({ status: "Unknown", message: "Reconciliation in progress" });
  });
});

describe("the next run", () => {
  const timing = { intervalMs: 600_000, retryIntervalMs: 60_000 };

  it("a success runs again after the interval", () => {
    expect(nextRun(success, timing)).toEqual({ requeueAfterMs: 600_000 });
  });

  it("a stalled failure does not run again until the object changes", () => {
    expect(nextRun(new ReconcileFailure("X", "x", { stalled: true, retryAfterMs: 5 }), timing)).toEqual({});
  });

  it("a wait runs again after its own delay", () => {
    const wait = new ReconcileFailure("DependencyNotReady", "x", { retryAfterMs: 30_000 });
    expect(isWait(wait)).toBe(true);
    expect(nextRun(wait, timing)).toEqual({ requeueAfterMs: 30_000 });
  });

  it("another failure runs again after the retry interval, or backs off when the kind has none", () => {
    const failure = new ReconcileFailure("Failed", "x");
    expect(isWait(failure)).toBe(false);
    expect(nextRun(failure, timing)).toEqual({ requeueAfterMs: 60_000 });
    expect(nextRun(failure, { intervalMs: 600_000 })).toEqual({ backoff: true });
  });
});

describe("failures and handled requests", () => {
  it("any error becomes a failure the CLI can print, a failure stays itself", () => {
    const failure = new ReconcileFailure("NoArtifact", "none", { condition: "IncludeUnavailable" });
    expect(asFailure(failure, () => new ReconcileFailure("Failed", "other"))).toBe(failure);
    const wrapped = asFailure(new Error("boom"), (m) => new ReconcileFailure("Failed", `wrapped: ${m}`));
    expect(wrapped).toMatchObject({ reason: "Failed", message: "wrapped: boom", stalled: false });
    expect(isFlotillaError(wrapped)).toBe(true);
  });

  it("lastHandledReconcileAt is the requestedAt annotation, else what status already says", () => {
    const meta = { name: "a", annotations: { "reconcile.fluxcd.io/requestedAt": "now" } };
    expect(handledAt({ apiVersion: "v1", kind: "X", metadata: meta, status: { lastHandledReconcileAt: "old" } })).toBe(
      "now",
    );
    expect(
      handledAt({ apiVersion: "v1", kind: "X", metadata: { name: "a" }, status: { lastHandledReconcileAt: "old" } }),
    ).toBe("old");
  });
});
