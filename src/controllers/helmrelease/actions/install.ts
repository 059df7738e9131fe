// helm install: the release's first revision (or a reinstall after an uninstall remediation).
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import { succeededMessage } from "../release-status.js";
import { command, common, flag, type ReleaseTarget, timeoutOf, wait } from "./helm-args.js";
import { chartFlags, failedWith, type HelmStep, runningMessage, succeededWith } from "./release-action.js";

/** helm install. CRDs are never helm's: the controller applies crds/ per policy first (crds/chart-crds.ts). */
export function installArgs(hr: HelmRelease, t: ReleaseTarget, chart: string, extra: string[] = []): string[] {
  const i = hr.spec.install ?? {};
  const ssa = i.serverSideApply ?? true;
  const flags = [
    ...common(t),
    `--server-side=${ssa}`,
    ...flag(ssa, "--force-conflicts"),
    ...flag(!i.disableTakeOwnership, "--take-ownership"),
    ...wait(hr, i),
    "--skip-crds",
    "--devel",
    // createNamespace is only honoured with a targetNamespace, as helm-controller does.
    ...flag(i.createNamespace && !!hr.spec.targetNamespace, "--create-namespace"),
    ...flag(i.replace, "--replace"),
    ...flag(i.disableHooks, "--no-hooks"),
    ...flag(i.disableOpenAPIValidation, "--disable-openapi-validation"),
    ...flag(i.disableSchemaValidation, "--skip-schema-validation"),
    ...timeoutOf(hr, i.timeout),
    ...extra,
  ];
  return command("install", flags, [t.release, chart]);
}

export const install: HelmStep = {
  command: "install",
  releases: "install",
  args: (input, home) => installArgs(input.hr, input.target, input.chart, chartFlags(home, input.hr, input.values)),
  progress: (hr) => runningMessage("install", hr),
  succeeded: (ctx) =>
    succeededWith("Released", "InstallSucceeded", succeededMessage("install", ctx.r!), ["TestSuccess", "Remediated"]),
  failed(err, ctx, s) {
    s.failures = (s.failures ?? 0) + 1;
    s.installFailures = (s.installFailures ?? 0) + 1;
    const message = `Helm install failed for ${ctx.where} with chart ${ctx.chart}: ${err.message}${ctx.hint}`;
    return failedWith("Released", "InstallFailed", message);
  },
};
