// helm rollback: the upgrade remediation (strategy rollback) to the previous successful revision.
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import { chartId, releaseId } from "../release-status.js";
import { command, common, flag, type ReleaseTarget, serverSideOf, timeoutOf, wait } from "./helm-args.js";
import { failedWith, type HelmStep, runningMessage, succeededWith } from "./release-action.js";

export function rollbackArgs(hr: HelmRelease, t: ReleaseTarget, toVersion: number): string[] {
  const r = hr.spec.rollback ?? {};
  const ssa = serverSideOf(r.serverSideApply);
  const flags = [
    ...common(t),
    `--server-side=${ssa}`,
    ...flag(ssa !== "false", "--force-conflicts"),
    ...flag(r.force && ssa === "false", "--force-replace"),
    ...wait(hr, r),
    "--history-max",
    String(hr.spec.maxHistory ?? 5),
    ...flag(r.cleanupOnFail, "--cleanup-on-fail"),
    ...flag(r.disableHooks, "--no-hooks"),
    ...timeoutOf(hr, r.timeout),
  ];
  return command("rollback", flags, [t.release, String(toVersion)]);
}

/** The rollback to `toVersion`. */
export const rollback = (toVersion: number): HelmStep => ({
  command: "rollback",
  remediates: true,
  args: (input) => rollbackArgs(input.hr, input.target, toVersion),
  progress: (hr) => runningMessage("rollback", hr),
  succeeded: ({ r }) =>
    succeededWith(
      "Remediated",
      "RollbackSucceeded",
      `Helm rollback to previous release ${releaseId(r!)} with chart ${chartId(r!)} succeeded`,
    ),
  failed: (err, ctx) =>
    failedWith(
      "Remediated",
      "RollbackFailed",
      `Helm rollback failed for ${ctx.where}${ctx.r ? ` (${releaseId(ctx.r)})` : ""}: ${err.message}${ctx.hint}`,
      "True",
    ),
});
