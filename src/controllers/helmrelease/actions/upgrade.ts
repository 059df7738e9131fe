// helm upgrade: a new revision of an installed release (chart, values or spec changed, a failed or
// unmanaged release taken over, a forced upgrade, or the retry of a failed one).
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import { succeededMessage } from "../release-status.js";
import { command, common, flag, type ReleaseTarget, serverSideOf, timeoutOf, wait } from "./helm-args.js";
import { chartFlags, failedWith, type HelmStep, runningMessage, succeededWith } from "./release-action.js";

export function upgradeArgs(hr: HelmRelease, t: ReleaseTarget, chart: string, extra: string[] = []): string[] {
  const u = hr.spec.upgrade ?? {};
  const ssa = serverSideOf(u.serverSideApply);
  const flags = [
    ...common(t),
    `--server-side=${ssa}`,
    ...flag(ssa !== "false", "--force-conflicts"),
    ...flag(u.force && ssa === "false", "--force-replace"),
    ...flag(!u.disableTakeOwnership, "--take-ownership"),
    ...wait(hr, u),
    // crds/ is applied by the controller per upgrade.crds (helm upgrade never touches it anyway).
    "--skip-crds",
    "--devel",
    ...(u.preserveValues ? ["--reuse-values"] : ["--reset-values"]),
    "--history-max",
    String(hr.spec.maxHistory ?? 5),
    ...flag(u.cleanupOnFail, "--cleanup-on-fail"),
    ...flag(u.disableHooks, "--no-hooks"),
    ...flag(u.disableOpenAPIValidation, "--disable-openapi-validation"),
    ...flag(u.disableSchemaValidation, "--skip-schema-validation"),
    ...timeoutOf(hr, u.timeout),
    ...extra,
  ];
  return command("upgrade", flags, [t.release, chart]);
}

export const upgrade: HelmStep = {
  command: "upgrade",
  releases: "upgrade",
  args: (input, home) => upgradeArgs(input.hr, input.target, input.chart, chartFlags(home, input.hr, input.values)),
  progress: (hr) => runningMessage("upgrade", hr),
  succeeded: (ctx) =>
    succeededWith("Released", "UpgradeSucceeded", succeededMessage("upgrade", ctx.r!), ["TestSuccess", "Remediated"]),
  failed(err, ctx, s) {
    s.failures = (s.failures ?? 0) + 1;
    s.upgradeFailures = (s.upgradeFailures ?? 0) + 1;
    const message = `Helm upgrade failed for ${ctx.where} with chart ${ctx.chart}: ${err.message}${ctx.hint}`;
    return failedWith("Released", "UpgradeFailed", message);
  },
};
