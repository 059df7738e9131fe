// What a helm action of a HelmRelease is, as helm-controller's action reconcilers each hold it: the
// helm command and its arguments, the progress message while it runs, and the outcome a success or a
// failure means for status (condition, conditions cleared, event, failure counters). One module per
// action (install.ts, upgrade.ts, test.ts, rollback.ts, uninstall.ts); release-run.ts only runs them.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HelmRelease, HelmReleaseStatus } from "../../../api/helm/helmrelease.js";
import type { Condition } from "../../../api/meta/conditions.js";
import type { HelmHome } from "../../../binaries/helm/index.js";
import { objectTimeout } from "../../../util/object-timeout.js";
import { preparePostRenderer } from "../post-render/post-renderer.js";
import type { StoredRelease } from "../storage/types.js";
import type { ReleaseTarget } from "./helm-args.js";

export interface ActionOutcome {
  condition: Omit<Condition, "lastTransitionTime">;
  /** Conditions a success clears (Released clears TestSuccess and Remediated). */
  drop: string[];
  event: { type: "Normal" | "Warning"; reason: string; message: string };
}

/** What an action's arguments are built from. */
export interface ActionInput {
  hr: HelmRelease;
  target: ReleaseTarget;
  /** The unpacked chart's directory (install, upgrade). */
  chart: string;
  values: Record<string, unknown>;
}

/** What an outcome names: `release <ns>/<name>`, `<chart>@<version>`, the newest stored revision. */
export interface OutcomeContext {
  where: string;
  chart: string;
  /** The newest stored revision after the action: none left after an uninstall remediation. */
  r?: StoredRelease;
  /** Test hooks in the newest history snapshot. */
  testHooks: number;
  /** Hints about the target cluster (impersonation, credentials, reachability), for a failure. */
  hint: string;
}

export interface HelmStep {
  /** helm's command: the progress message and the helm process counter's label. */
  readonly command: "install" | "upgrade" | "test" | "rollback" | "uninstall";
  /** install and upgrade: status.lastAttemptedReleaseAction with its duration; chart CRDs applied first. */
  readonly releases?: "install" | "upgrade";
  /** rollback and uninstall remediation: the reconcile ends not Ready, the failure remediated is its outcome. */
  readonly remediates?: boolean;
  args(input: ActionInput, home: HelmHome): string[];
  progress(hr: HelmRelease): string;
  succeeded(ctx: OutcomeContext): ActionOutcome;
  /** The failure's outcome; raises the failure counters in `s` as helm-controller counts them. */
  failed(err: Error, ctx: OutcomeContext, s: HelmReleaseStatus): ActionOutcome;
}

/** The message of Reconciling=True while an action runs: spec.timeout, or the cap that bounds it (said so). */
export function runningMessage(command: string, hr: HelmRelease): string {
  const t = objectTimeout(hr.spec.timeout, "5m0s");
  return `Running '${command}' action with timeout of ${t.capped ? `${t.text} (${t.capped})` : t.text}`;
}

export const succeededWith = (type: string, reason: string, message: string, drop: string[] = []): ActionOutcome => ({
  condition: { type, status: "True", reason, message },
  drop,
  event: { type: "Normal", reason, message },
});

export const failedWith = (
  type: string,
  reason: string,
  message: string,
  status: "True" | "False" = "False",
): ActionOutcome => ({
  condition: { type, status, reason, message },
  drop: [],
  event: { type: "Warning", reason, message },
});

/**
 * The values file (0600, removed with the home) and the post-renderer plugin of a render of `hr`:
 * install's, upgrade's, and the preview's `helm template`, so a preview renders as the install does.
 */
export function chartFlags(home: HelmHome, hr: HelmRelease, values: Record<string, unknown>): string[] {
  const file = join(home.dir, "values.yaml");
  writeFileSync(file, JSON.stringify(values), { mode: 0o600 });
  return ["-f", file, ...preparePostRenderer(home, hr)];
}
