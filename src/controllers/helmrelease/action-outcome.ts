// What a finished helm action means for a HelmRelease's status, as helm-controller words it: the
// condition to set, the conditions to drop, the event, and for a failure the counters to raise. Pure,
// so ReleaseRun only applies it.
import type { HelmReleaseStatus } from "../../api/helm/helmrelease.js";
import type { Condition } from "../../api/meta/conditions.js";
import type { DriftReport } from "./drift/drift.js";
import { chartId, releaseId, succeededMessage } from "./release-status.js";
import type { StoredRelease } from "./storage/types.js";

export interface ActionOutcome {
  condition: Omit<Condition, "lastTransitionTime">;
  /** Conditions a success clears (Released clears TestSuccess and Remediated). */
  drop: string[];
  event: { type: "Normal" | "Warning"; reason: string; message: string };
}

/** `r` is the newest stored revision (none after an uninstall remediation); `testHooks` the latest snapshot's. */
export function succeededOutcome(
  kind: string,
  r: StoredRelease | undefined,
  where: { namespace: string; release: string },
  testHooks: number,
): ActionOutcome {
  const done = (type: string, reason: string, message: string, drop: string[] = []): ActionOutcome => ({
    condition: { type, status: "True", reason, message },
    drop,
    event: { type: "Normal", reason, message },
  });
  if (kind === "uninstall-remediation")
    return done(
      "Remediated",
      "UninstallSucceeded",
      `Helm uninstall remediation for release ${where.namespace}/${where.release} succeeded`,
    );
  const id = releaseId(r!);
  if (kind === "install" || kind === "upgrade")
    return done("Released", kind === "install" ? "InstallSucceeded" : "UpgradeSucceeded", succeededMessage(kind, r!), [
      "TestSuccess",
      "Remediated",
    ]);
  if (kind === "test")
    return done(
      "TestSuccess",
      "TestSucceeded",
      `Helm test succeeded for release ${id} with chart ${chartId(r!)}: ${testHooks === 0 ? "no test hooks" : `${testHooks} test hooks completed successfully`}`,
    );
  return done(
    "Remediated",
    "RollbackSucceeded",
    `Helm rollback to previous release ${id} with chart ${chartId(r!)} succeeded`,
  );
}

export interface FailureContext {
  where: string;
  chart: string;
  /** Hints about the target cluster (impersonation, credentials, reachability). */
  hint: string;
  r?: StoredRelease;
}

/** The failed action's outcome; raises the failure counters in `s` as helm-controller counts them. */
export function failedOutcome(kind: string, err: Error, ctx: FailureContext, s: HelmReleaseStatus): ActionOutcome {
  const fail = (type: string, reason: string, message: string, status: "True" | "False" = "False"): ActionOutcome => ({
    condition: { type, status, reason, message },
    drop: [],
    event: { type: "Warning", reason, message },
  });
  if (kind === "install" || kind === "upgrade") {
    s.failures = (s.failures ?? 0) + 1;
    if (kind === "install") s.installFailures = (s.installFailures ?? 0) + 1;
    else s.upgradeFailures = (s.upgradeFailures ?? 0) + 1;
    return fail(
      "Released",
      kind === "install" ? "InstallFailed" : "UpgradeFailed",
      `Helm ${kind} failed for ${ctx.where} with chart ${ctx.chart}: ${err.message}${ctx.hint}`,
    );
  }
  if (kind === "test") {
    s.failures = (s.failures ?? 0) + 1;
    if (s.lastAttemptedReleaseAction === "upgrade") s.upgradeFailures = (s.upgradeFailures ?? 0) + 1;
    else s.installFailures = (s.installFailures ?? 0) + 1;
    return fail(
      "TestSuccess",
      "TestFailed",
      `Helm test failed for ${ctx.where} with chart ${ctx.chart}: ${err.message}`,
    );
  }
  const rollback = kind === "rollback";
  return fail(
    "Remediated",
    rollback ? "RollbackFailed" : "UninstallFailed",
    `Helm ${rollback ? "rollback" : "uninstall remediation"} failed for ${ctx.where}${ctx.r ? ` (${releaseId(ctx.r)})` : ""}: ${err.message}${ctx.hint}`,
    "True",
  );
}

export function driftMessage(r: StoredRelease, d: DriftReport): string {
  return `Cluster state of release ${releaseId(r)} has drifted from the desired state: ${d.entries.map((e) => `${e.subject} ${e.action === "create" ? "removed" : "changed"}`).join(", ")}`;
}
