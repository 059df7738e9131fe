// What to do with a HelmRelease's Helm release, decided without running helm — helm-controller's
// DetermineReleaseState (internal/reconcile/state.go) and actionForState (atomic_release.go) as pure
// functions over what storage and status say. The reconciler reads storage with the kube client,
// computes digests, checks drift only when everything else is in sync, and calls these.
import { FORCE_AT_ANNOTATION, REQUESTED_AT_ANNOTATION, RESET_AT_ANNOTATION } from "../../api/meta/annotations.js";
import type { HelmRelease, ReleaseSnapshot, Remediation } from "../../api/helm/helmrelease.js";
import type { StoredRelease } from "./storage/release.js";

export type ReleaseStatus =
  "Absent" | "Locked" | "Unmanaged" | "Failed" | "OutOfSync" | "Untested" | "Drifted" | "InSync";

export interface ReleaseState {
  status: ReleaseStatus;
  reason: string;
}

/** The desired side, computed by the reconciler from the chart artifact, values and spec. */
export interface Desired {
  chartName: string;
  chartVersion: string;
  valuesDigest: string;
  postRenderersDigest?: string;
  commonMetadataDigest?: string;
}

const PENDING = new Set(["pending-install", "pending-upgrade", "pending-rollback"]);

/** The newest snapshot of status.history (helm-controller keeps it first). */
export const latestSnapshot = (hr: HelmRelease): ReleaseSnapshot | undefined => hr.status?.history?.[0];

/**
 * DetermineReleaseState, drift excepted: `InSync` here means "check drift next when detection is on".
 * `lastDigest` is observationDigest(last), computed by the caller (storage owns the digest).
 */
export function determineReleaseState(
  hr: HelmRelease,
  last: StoredRelease | undefined,
  lastDigest: string | undefined,
  desired: Desired,
): ReleaseState {
  if (!last) return { status: "Absent", reason: "no release in storage for object" };
  if (PENDING.has(last.info.status)) return { status: "Locked", reason: `release with status '${last.info.status}'` };
  const cur = latestSnapshot(hr);
  if (!cur) {
    if (last.info.status === "uninstalled") return { status: "Absent", reason: "found uninstalled release in storage" };
    return { status: "Unmanaged", reason: "found existing release in storage" };
  }
  // A legacy snapshot (apiVersion other than v2) is trusted without the digest, as helm-controller does.
  const sameRelease = cur.name === last.name && cur.version === last.version;
  if (!sameRelease || (cur.apiVersion === "v2" && cur.digest !== lastDigest))
    return { status: "Unmanaged", reason: "release digest verification failed" };
  switch (last.info.status) {
    case "failed":
      return { status: "Failed", reason: "release is in a failed state" };
    case "uninstalled":
      return { status: "Absent", reason: "found uninstalled release in storage" };
    case "deployed":
      return deployedState(hr, last, cur, desired);
    default:
      return { status: "Unmanaged", reason: `release with status '${last.info.status}'` };
  }
}

function deployedState(hr: HelmRelease, last: StoredRelease, cur: ReleaseSnapshot, d: Desired): ReleaseState {
  const meta = last.chart.metadata;
  if (meta.name !== d.chartName || meta.version !== d.chartVersion)
    return { status: "OutOfSync", reason: "release chart has changed" };
  if (cur.configDigest !== d.valuesDigest) return { status: "OutOfSync", reason: "release values have changed" };
  // Post-renderers and common metadata are only compared when the spec changed (generation).
  if (hr.status?.observedGeneration !== hr.metadata.generation) {
    if ((hr.status?.observedPostRenderersDigest ?? undefined) !== d.postRenderersDigest)
      return { status: "OutOfSync", reason: "postRenderers digest has changed" };
    if ((hr.status?.observedCommonMetadataDigest ?? undefined) !== d.commonMetadataDigest)
      return { status: "OutOfSync", reason: "commonMetadata digest has changed" };
  }
  if (hr.spec.test?.enable) {
    if (!cur.testHooks) return { status: "Untested", reason: "release has not been tested" };
    const failed = Object.values(cur.testHooks).some((h) => h.phase === "Failed");
    if (failed && !ignoreTestFailures(hr)) return { status: "Failed", reason: "release has test failures" };
  }
  return { status: "InSync", reason: "release is in sync with desired state" };
}

/** The remediation of the last attempted action (GetActiveRemediation), with its failure count. */
export function activeRemediation(
  hr: HelmRelease,
): { kind: "install" | "upgrade"; r: Remediation; failures: number } | undefined {
  const kind = hr.status?.lastAttemptedReleaseAction;
  if (kind === "install")
    return { kind, r: hr.spec.install?.remediation ?? {}, failures: hr.status?.installFailures ?? 0 };
  if (kind === "upgrade")
    return { kind, r: hr.spec.upgrade?.remediation ?? {}, failures: hr.status?.upgradeFailures ?? 0 };
  return undefined;
}

const retriesExhausted = (r: Remediation, failures: number) => (r.retries ?? 0) >= 0 && failures > (r.retries ?? 0);

/** remediateLastFailure: install's defaults to false, upgrade's to "retries > 0". */
function mustRemediateLastFailure(kind: "install" | "upgrade", r: Remediation): boolean {
  if (r.remediateLastFailure !== undefined) return r.remediateLastFailure;
  return kind === "upgrade" && (r.retries ?? 0) > 0;
}

function ignoreTestFailures(hr: HelmRelease): boolean {
  return activeRemediation(hr)?.r.ignoreTestFailures ?? hr.spec.test?.ignoreFailures ?? false;
}

/** forceAt equal to requestedAt and not yet handled (ShouldHandleForceRequest). */
export function forceRequested(hr: HelmRelease): string | undefined {
  return handledRequest(hr, FORCE_AT_ANNOTATION, hr.status?.lastHandledForceAt);
}

/** resetAt equal to requestedAt and not yet handled (ShouldHandleResetRequest). */
export function resetRequested(hr: HelmRelease): string | undefined {
  return handledRequest(hr, RESET_AT_ANNOTATION, hr.status?.lastHandledResetAt);
}

function handledRequest(hr: HelmRelease, annotation: string, handled: string | undefined): string | undefined {
  const a = hr.metadata.annotations ?? {};
  const at = a[annotation];
  return at && at === a[REQUESTED_AT_ANNOTATION] && at !== handled ? at : undefined;
}

type PlainAction = "none" | "install" | "upgrade" | "test" | "unlock" | "uninstall-remediation" | "correct-drift";

/** One member per kind, so a check of `kind` narrows to it. */
export type NextAction =
  | { [K in PlainAction]: { kind: K } }[PlainAction]
  | { kind: "rollback"; toVersion: number }
  /** Retries exhausted (RetriesExceeded, stalled) or no rollback target. */
  | { kind: "stall"; reason: "RetriesExceeded" | "MissingRollbackTarget"; message: string };

/** actionForState: the one action this state asks for. `force` is forceRequested(hr) !== undefined. */
export function actionForState(hr: HelmRelease, state: ReleaseState, force: boolean): NextAction {
  switch (state.status) {
    case "InSync":
      // A force request upgrades a release that is in sync (helm-controller: "forcing upgrade for in-sync release").
      return force ? { kind: "upgrade" } : { kind: "none" };
    case "Locked":
      return { kind: "unlock" };
    case "Absent": {
      const r = hr.spec.install?.remediation ?? {};
      if (!force && retriesExhausted(r, hr.status?.installFailures ?? 0)) return exceeded(hr, "install");
      return { kind: "install" };
    }
    case "Unmanaged":
      return { kind: "upgrade" };
    case "OutOfSync": {
      const r = hr.spec.upgrade?.remediation ?? {};
      if (!force && retriesExhausted(r, hr.status?.upgradeFailures ?? 0)) return exceeded(hr, "upgrade");
      return { kind: "upgrade" };
    }
    case "Drifted":
      return hr.spec.driftDetection?.mode === "warn" ? { kind: "none" } : { kind: "correct-drift" };
    case "Untested":
      return { kind: "test" };
    case "Failed":
      return failedAction(hr, force);
  }
}

function failedAction(hr: HelmRelease, force: boolean): NextAction {
  const active = activeRemediation(hr);
  if (force || !active) return { kind: "upgrade" };
  const spec = active.kind === "install" ? hr.spec.install : hr.spec.upgrade;
  // RetryOnFailure: no remediation, the next upgrade is the retry (after retryInterval).
  if (spec?.strategy?.name === "RetryOnFailure") return { kind: "upgrade" };
  if (active.failures <= 0) return { kind: "upgrade" };
  const exhausted = retriesExhausted(active.r, active.failures);
  if (!exhausted || mustRemediateLastFailure(active.kind, active.r)) {
    if (active.kind === "upgrade" && (active.r.strategy ?? "rollback") === "rollback") {
      const previous = previousSnapshot(hr);
      if (!previous)
        return {
          kind: "stall",
          reason: "MissingRollbackTarget",
          message: "cannot remediate failed release: no previous successful release in history to roll back to",
        };
      return { kind: "rollback", toVersion: previous.version };
    }
    if (!alreadyRemediated(hr)) return { kind: "uninstall-remediation" };
  }
  if (exhausted) return exceeded(hr, active.kind);
  return { kind: "upgrade" };
}

/** After an uninstall remediation the release is uninstalled (Absent), so this guards a loop only. */
const alreadyRemediated = (hr: HelmRelease) => latestSnapshot(hr)?.status === "uninstalled";

/** history.Previous(): the newest deployed or superseded snapshot after the latest one. */
export function previousSnapshot(hr: HelmRelease): ReleaseSnapshot | undefined {
  return (hr.status?.history ?? []).slice(1).find((s) => s.status === "deployed" || s.status === "superseded");
}

function exceeded(hr: HelmRelease, kind: "install" | "upgrade"): NextAction {
  const n = kind === "install" ? (hr.status?.installFailures ?? 0) : (hr.status?.upgradeFailures ?? 0);
  return { kind: "stall", reason: "RetriesExceeded", message: `Failed to ${kind} after ${n} attempt(s)` };
}
