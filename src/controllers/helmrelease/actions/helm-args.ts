// The flags every helm action shares, as helm v4 CLI arguments (facts §1.6 "HC ↔ Helm option mapping");
// each action's own options are in its module (install.ts, upgrade.ts, ...). Pure: the runner adds
// the kubeconfig. Never --atomic or --rollback-on-failure: remediation is the controller's own state
// machine, with its retry counts. The positionals (release name, chart, revision) come last, after
// "--": a name from the spec is then never read as a flag, whatever it looks like.
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import { helmEngineOn } from "./helm-engine-switch.js";

/** Where and as whom: the release, its namespace, and the impersonated user if any. */
export interface ReleaseTarget {
  release: string;
  namespace: string;
  asUser?: string;
}

const DEFAULT_TIMEOUT = "5m0s";

export const timeoutOf = (hr: HelmRelease, own?: string) => ["--timeout", own ?? hr.spec.timeout ?? DEFAULT_TIMEOUT];

export function common(t: ReleaseTarget): string[] {
  return ["-n", t.namespace, ...(t.asUser ? ["--kube-as-user", t.asUser] : [])];
}

/**
 * helm's --wait for spec.waitStrategy. poller (the default, helm-controller's kstatus poller) is, in the
 * resident engine, `--wait=flotilla`: the engine hands the wait back to flotilla, which polls the objects
 * with kstatus (and spec.healthCheckExprs for the kinds they name: health-exprs.ts, decisions 0047, 0042).
 * helm's own kstatus watcher, which a helm process keeps (--helm-engine=false), starts informers on every
 * kind of the release in its namespace per action: with many releases in one namespace each wait decoded
 * every other release's events, the engine's largest cost (decision 0042, "Where the CPU went").
 * legacy is Helm v3's wait, which helm v4 keeps as `--wait=legacy`.
 */
export function waitStrategyOf(hr: HelmRelease): "legacy" | "watcher" | "flotilla" {
  if (hr.spec.waitStrategy?.name === "legacy") return "legacy";
  return helmEngineOn() ? "flotilla" : "watcher";
}

/** --wait by the release's strategy unless disableWait; wait-for-jobs unless disableWaitForJobs (or no wait). */
export function wait(hr: HelmRelease, o: { disableWait?: boolean; disableWaitForJobs?: boolean }): string[] {
  if (o.disableWait) return [];
  return [`--wait=${waitStrategyOf(hr)}`, ...(o.disableWaitForJobs ? [] : ["--wait-for-jobs"])];
}

export const flag = (on: boolean | undefined, name: string) => (on ? [name] : []);

/** upgrade's and rollback's serverSideApply: "auto" (the last release's method) unless set. */
export const serverSideOf = (v: string | undefined) => (v === "enabled" ? "true" : v === "disabled" ? "false" : "auto");

/** `helm <command> <flags…> -- <positionals…>`. */
export const command = (name: string, flags: string[], positionals: string[]) => [name, ...flags, "--", ...positionals];
