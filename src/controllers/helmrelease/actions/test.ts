// helm test: the release's test hooks, when spec.test.enable (the release state is Untested).
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import { chartId, releaseId } from "../release-status.js";
import { command, common, type ReleaseTarget, timeoutOf } from "./helm-args.js";
import { failedWith, type HelmStep, runningMessage, succeededWith } from "./release-action.js";

export function testArgs(hr: HelmRelease, t: ReleaseTarget): string[] {
  const filters = (hr.spec.test?.filters ?? []).map((f) => `${f.exclude ? "!" : ""}name=${f.name}`);
  const flags = [...common(t), ...filters.flatMap((f) => ["--filter", f]), ...timeoutOf(hr, hr.spec.test?.timeout)];
  return command("test", flags, [t.release]);
}

export const test: HelmStep = {
  command: "test",
  args: (input) => testArgs(input.hr, input.target),
  progress: (hr) => runningMessage("test", hr),
  succeeded({ r, testHooks }) {
    const hooks = testHooks === 0 ? "no test hooks" : `${testHooks} test hooks completed successfully`;
    const message = `Helm test succeeded for release ${releaseId(r!)} with chart ${chartId(r!)}: ${hooks}`;
    return succeededWith("TestSuccess", "TestSucceeded", message);
  },
  failed(err, ctx, s) {
    // A failed test counts against the release action it tested.
    s.failures = (s.failures ?? 0) + 1;
    if (s.lastAttemptedReleaseAction === "upgrade") s.upgradeFailures = (s.upgradeFailures ?? 0) + 1;
    else s.installFailures = (s.installFailures ?? 0) + 1;
    return failedWith(
      "TestSuccess",
      "TestFailed",
      `Helm test failed for ${ctx.where} with chart ${ctx.chart}: ${err.message}`,
    );
  },
};
