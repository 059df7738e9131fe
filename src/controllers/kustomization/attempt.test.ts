// What one Kustomization attempt writes to status, decided without an API server: the "in progress"
// conditions and their deferred write, the fields kept on failure, the history snapshot.
import { describe, expect, it, vi } from "vitest";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { ReconcileContext } from "../../runtime/controller.js";
import { DeferredWrite } from "../kit/deferred-write.js";
import { ReconcileFailure } from "../kit/failure.js";
import { type Attempt, attemptStatus, markProgressing, phaseDurations, progressingConditions } from "./attempt.js";

const ks = (status: Kustomization["status"] = {}, spec: Partial<Kustomization["spec"]> = {}): Kustomization =>
  ({
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name: "apps", namespace: "flux-system", generation: 3 },
    spec: { interval: "10m", prune: true, sourceRef: { kind: "GitRepository", name: "repo" }, ...spec },
    status,
  }) as Kustomization;

const inventory = { entries: [{ id: "apps_web_apps_Deployment", v: "v1" }] };
const attempt = (extra: Partial<Attempt> = {}): Attempt => ({
  revision: "main@sha1:abc",
  conditions: [],
  phases: {},
  ...extra,
});

describe("Kustomization attempt", () => {
  it("in progress: Reconciling=True with Flux's drift message and the timeout (interval − 30 s), Ready=Unknown", () => {
    const conditions = progressingConditions(ks(), attempt());
    expect(conditions.map((c) => [c.type, c.status, c.reason, c.message, c.observedGeneration])).toEqual([
      ["Ready", "Unknown", "Progressing", "Reconciliation in progress", 3],
      ["Reconciling", "True", "Progressing", "Detecting drift for revision main@sha1:abc with a timeout of 9m30s", 3],
    ]);
    expect(progressingConditions(ks({}, { timeout: "2m" }), attempt())[1]!.message).toContain("timeout of 2m0s");
  });

  it("the in-progress status is written only if the attempt still runs after the deferred write's delay", async () => {
    vi.useFakeTimers();
    try {
      const written: Record<string, unknown>[] = [];
      const ctx = { log: { debug: () => {} } } as unknown as ReconcileContext;
      const quick = new DeferredWrite(5000);
      const a = attempt();
      markProgressing(ks(), a, quick, async (s) => void written.push(s), ctx);
      vi.advanceTimersByTime(4999);
      await quick.settle(); // finished before the delay: nothing written
      expect(written).toEqual([]);
      expect(a.conditions.map((c) => c.type)).toEqual(["Ready", "Reconciling"]);

      const slow = new DeferredWrite(5000);
      markProgressing(ks(), a, slow, async (s) => void written.push(s), ctx);
      vi.advanceTimersByTime(5000);
      await slow.settle();
      expect(written).toEqual([{ lastAttemptedRevision: "main@sha1:abc", conditions: a.conditions }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a failure keeps what the attempt got to (inventory, attempted revision) but not lastAppliedRevision", () => {
    const failed = new ReconcileFailure("HealthCheckFailed", "timeout waiting for: [Deployment/apps/web]");
    const status = attemptStatus(ks(), attempt({ inventory, digest: "sha256:d" }), failed, Date.now());
    expect(status).toMatchObject({ lastAttemptedRevision: "main@sha1:abc", inventory });
    expect(status).not.toHaveProperty("lastAppliedRevision");
    expect(status.history?.map((h) => [h.digest, h.lastReconciledStatus, h.metadata])).toEqual([
      ["sha256:d", "HealthCheckFailed", { revision: "main@sha1:abc" }],
    ]);
  });

  it("a success sets lastAppliedRevision and counts the snapshot again; nothing built leaves history as it was", () => {
    const ok = { reason: "ReconciliationSucceeded", message: "Applied revision: main@sha1:abc" };
    const first = attemptStatus(ks(), attempt({ inventory, digest: "sha256:d" }), ok, Date.now());
    expect(first.lastAppliedRevision).toBe("main@sha1:abc");
    const again = attemptStatus(ks({ history: first.history }), attempt({ digest: "sha256:d" }), ok, Date.now());
    expect(again.history?.map((h) => h.totalReconciliations)).toEqual([2]);
    const unbuilt = attemptStatus(ks({ history: first.history }), attempt(), ok, Date.now());
    expect(unbuilt.history).toBe(first.history);
  });

  it("where the time went: each phase's milliseconds after the one before", () => {
    expect(phaseDurations({ started: 1000, fetched: 1012, built: 1052, applied: 1500 })).toEqual({
      fetchedMs: 12,
      builtMs: 40,
      appliedMs: 448,
    });
  });
});
