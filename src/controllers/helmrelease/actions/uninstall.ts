// helm uninstall: the install remediation (strategy uninstall), and the same command when the
// HelmRelease is deleted (finalize.ts) or its release target changed (release-target.ts).
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import type { ClusterEndpoint } from "../../../kube/kubeconfig.js";
import { releaseId } from "../release-status.js";
import { command, common, flag, type ReleaseTarget, timeoutOf, waitStrategyOf } from "./helm-args.js";
import { runAction } from "./run-action.js";
import { failedWith, type HelmStep, runningMessage, succeededWith } from "./release-action.js";

export function uninstallArgs(hr: HelmRelease, t: ReleaseTarget): string[] {
  const u = hr.spec.uninstall ?? {};
  const flags = [
    ...common(t),
    "--cascade",
    u.deletionPropagation ?? "background",
    "--ignore-not-found",
    // Deletion is helm's own watcher under the poller: healthCheckExprs judge objects that exist.
    ...(u.disableWait ? [] : [`--wait=${waitStrategyOf(hr) === "legacy" ? "legacy" : "watcher"}`]),
    ...flag(u.keepHistory, "--keep-history"),
    ...flag(u.disableHooks, "--no-hooks"),
    ...timeoutOf(hr, u.timeout),
  ];
  return command("uninstall", flags, [t.release]);
}

export const uninstallRemediation: HelmStep = {
  command: "uninstall",
  remediates: true,
  args: (input) => uninstallArgs(input.hr, input.target),
  progress: (hr) => runningMessage("uninstall", hr),
  succeeded: (ctx) =>
    succeededWith("Remediated", "UninstallSucceeded", `Helm uninstall remediation for ${ctx.where} succeeded`),
  failed: (err, ctx) =>
    failedWith(
      "Remediated",
      "UninstallFailed",
      `Helm uninstall remediation failed for ${ctx.where}${ctx.r ? ` (${releaseId(ctx.r)})` : ""}: ${err.message}${ctx.hint}`,
      "True",
    ),
};

/** Uninstalls `t` outside a reconcile's release run: the HelmRelease deleted or its target changed. */
export async function uninstallRelease(hr: HelmRelease, t: ReleaseTarget, endpoint: ClusterEndpoint): Promise<void> {
  await runAction({ command: "uninstall", args: () => uninstallArgs(hr, t) }, { hr, endpoint });
}
