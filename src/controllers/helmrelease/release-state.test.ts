import { describe, expect, it } from "vitest";
import type { HelmRelease, HelmReleaseSpec, HelmReleaseStatus, ReleaseSnapshot } from "../../api/helm/helmrelease.js";
import type { StoredRelease } from "./storage/release.js";
import { actionForState, determineReleaseState, forceRequested, type Desired } from "./release-state.js";

const desired: Desired = { chartName: "cert-manager", chartVersion: "v1.10.1", valuesDigest: "sha256:v1" };

const stored = (version: number, status: string, chartVersion = "v1.10.1"): StoredRelease => ({
  name: "default-cm",
  namespace: "default",
  version,
  info: { status },
  chart: { metadata: { name: "cert-manager", version: chartVersion } },
});

const snap = (version: number, status: string, extra: Partial<ReleaseSnapshot> = {}): ReleaseSnapshot => ({
  apiVersion: "v2",
  digest: `sha256:d${version}`,
  name: "default-cm",
  namespace: "default",
  version,
  status,
  chartName: "cert-manager",
  chartVersion: "v1.10.1",
  configDigest: "sha256:v1",
  firstDeployed: "",
  lastDeployed: "",
  ...extra,
});

const hr = (spec: Partial<HelmReleaseSpec> = {}, status: HelmReleaseStatus = {}, annotations = {}): HelmRelease => ({
  apiVersion: "helm.toolkit.fluxcd.io/v2",
  kind: "HelmRelease",
  metadata: { name: "cm", namespace: "tenants", generation: 1, annotations },
  spec: { interval: "1m", ...spec },
  status: { observedGeneration: 1, ...status },
});

const state = (h: HelmRelease, s: StoredRelease | undefined) =>
  determineReleaseState(h, s, s ? `sha256:d${s.version}` : undefined, desired);

describe("release state (helm-controller's DetermineReleaseState)", () => {
  it("is Absent without a release and installs", () => {
    const h = hr();
    expect(state(h, undefined).status).toBe("Absent");
    expect(actionForState(h, state(h, undefined), false)).toEqual({ kind: "install" });
  });

  it("is Locked when the last release is pending-upgrade (a crashed helm) and unlocks it", () => {
    const h = hr({}, { history: [snap(2, "deployed")] });
    const s = state(h, stored(2, "pending-upgrade"));
    expect(s).toEqual({ status: "Locked", reason: "release with status 'pending-upgrade'" });
    expect(actionForState(h, s, false).kind).toBe("unlock");
  });

  it("adopts a release installed by hand (no history) with an upgrade, but treats an uninstalled one as Absent", () => {
    expect(state(hr(), stored(1, "deployed")).status).toBe("Unmanaged");
    expect(actionForState(hr(), state(hr(), stored(1, "deployed")), false).kind).toBe("upgrade");
    expect(state(hr(), stored(1, "uninstalled")).status).toBe("Absent");
  });

  it("is Unmanaged when storage changed behind its back (digest differs from the snapshot)", () => {
    const h = hr({}, { history: [snap(1, "deployed")] });
    expect(determineReleaseState(h, stored(1, "deployed"), "sha256:other", desired).status).toBe("Unmanaged");
  });

  it("is InSync when chart, values and generation match — nothing to do", () => {
    const h = hr({}, { history: [snap(1, "deployed")] });
    expect(state(h, stored(1, "deployed")).status).toBe("InSync");
    expect(actionForState(h, state(h, stored(1, "deployed")), false)).toEqual({ kind: "none" });
    // …unless a force request is pending: then an upgrade, as helm-controller's "forcing upgrade for in-sync release".
    expect(actionForState(h, state(h, stored(1, "deployed")), true)).toEqual({ kind: "upgrade" });
  });

  it("is OutOfSync on a new chart version or new values, and upgrades", () => {
    const h = hr({}, { history: [snap(1, "deployed")] });
    expect(state(h, stored(1, "deployed", "v1.10.0"))).toEqual({
      status: "OutOfSync",
      reason: "release chart has changed",
    });
    const v = determineReleaseState(h, stored(1, "deployed"), "sha256:d1", { ...desired, valuesDigest: "sha256:v2" });
    expect(v.reason).toBe("release values have changed");
    expect(actionForState(h, v, false).kind).toBe("upgrade");
  });

  it("compares post-renderer digests only when the generation changed", () => {
    const base = { history: [snap(1, "deployed")], observedPostRenderersDigest: "sha256:old" };
    const d = { ...desired, postRenderersDigest: "sha256:new" };
    expect(determineReleaseState(hr({}, base), stored(1, "deployed"), "sha256:d1", d).status).toBe("InSync");
    const changed = hr({}, { ...base, observedGeneration: 0 });
    expect(determineReleaseState(changed, stored(1, "deployed"), "sha256:d1", d).status).toBe("OutOfSync");
  });

  it("is Untested with tests enabled and no test run, Failed when a test failed and failures are not ignored", () => {
    const untested = hr({ test: { enable: true } }, { history: [snap(1, "deployed")] });
    expect(state(untested, stored(1, "deployed")).status).toBe("Untested");
    expect(actionForState(untested, state(untested, stored(1, "deployed")), false).kind).toBe("test");
    const failedHooks = { testHooks: { t: { phase: "Failed" } } };
    const failed = hr({ test: { enable: true } }, { history: [snap(1, "deployed", failedHooks)] });
    expect(state(failed, stored(1, "deployed")).status).toBe("Failed");
    const ignored = hr(
      { test: { enable: true, ignoreFailures: true } },
      { history: [snap(1, "deployed", failedHooks)] },
    );
    expect(state(ignored, stored(1, "deployed")).status).toBe("InSync");
  });

  it("corrects drift in mode enabled and only reports it in mode warn", () => {
    const drifted = { status: "Drifted" as const, reason: "" };
    expect(actionForState(hr({ driftDetection: { mode: "enabled" } }), drifted, false).kind).toBe("correct-drift");
    expect(actionForState(hr({ driftDetection: { mode: "warn" } }), drifted, false).kind).toBe("none");
  });
});

describe("remediation (helm-controller's actionForState for a failed release)", () => {
  const failedInstall = (retries: number, failures: number, extra: Partial<HelmReleaseSpec> = {}) =>
    hr(
      { install: { remediation: { retries } }, ...extra },
      { history: [snap(1, "failed")], lastAttemptedReleaseAction: "install", installFailures: failures, failures },
    );
  const failedState = { status: "Failed" as const, reason: "" };

  it("uninstalls a failed install while retries remain, then stalls RetriesExceeded once exhausted", () => {
    expect(actionForState(failedInstall(2, 1), failedState, false).kind).toBe("uninstall-remediation");
    expect(actionForState(failedInstall(2, 3), failedState, false)).toEqual({
      kind: "stall",
      reason: "RetriesExceeded",
      message: "Failed to install after 3 attempt(s)",
    });
  });

  it("stalls after one failed install by default (retries 0), unless remediateLastFailure", () => {
    expect(actionForState(failedInstall(0, 1), failedState, false).kind).toBe("stall");
    const last = hr(
      { install: { remediation: { retries: 0, remediateLastFailure: true } } },
      { history: [snap(1, "failed")], lastAttemptedReleaseAction: "install", installFailures: 1 },
    );
    expect(actionForState(last, failedState, false).kind).toBe("uninstall-remediation");
  });

  it("does not install again once install retries are exhausted (Absent after the uninstall)", () => {
    const h = failedInstall(1, 2);
    expect(actionForState(h, { status: "Absent", reason: "" }, false).kind).toBe("stall");
    expect(actionForState(h, { status: "Absent", reason: "" }, true).kind).toBe("install");
  });

  it("rolls a failed upgrade back to the previous deployed revision", () => {
    const h = hr(
      { upgrade: { remediation: { retries: 1 } } },
      {
        history: [snap(3, "failed"), snap(2, "superseded")],
        lastAttemptedReleaseAction: "upgrade",
        upgradeFailures: 1,
      },
    );
    expect(actionForState(h, failedState, false)).toEqual({ kind: "rollback", toVersion: 2 });
    // retries exhausted: upgrade's remediateLastFailure defaults to true when retries > 0
    const exhausted = { ...h, status: { ...h.status, upgradeFailures: 2 } };
    expect(actionForState(exhausted, failedState, false)).toEqual({ kind: "rollback", toVersion: 2 });
  });

  it("upgrades a failed release when forced, without active remediation, or with RetryOnFailure", () => {
    expect(actionForState(failedInstall(0, 1), failedState, true).kind).toBe("upgrade");
    expect(actionForState(hr({}, { history: [snap(1, "failed")] }), failedState, false).kind).toBe("upgrade");
    const retry = failedInstall(0, 1, { install: { strategy: { name: "RetryOnFailure" } } });
    expect(actionForState(retry, failedState, false).kind).toBe("upgrade");
  });

  it("takes forceAt only when it equals requestedAt and was not handled yet", () => {
    const a = { "reconcile.fluxcd.io/forceAt": "t1", "reconcile.fluxcd.io/requestedAt": "t1" };
    expect(forceRequested(hr({}, {}, a))).toBe("t1");
    expect(forceRequested(hr({}, { lastHandledForceAt: "t1" }, a))).toBeUndefined();
    expect(forceRequested(hr({}, {}, { ...a, "reconcile.fluxcd.io/requestedAt": "t2" }))).toBeUndefined();
  });
});
