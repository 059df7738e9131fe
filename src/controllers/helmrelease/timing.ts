// A HelmRelease's interval and timeout (helm-controller: timeout defaults to 5m).
import type { HelmReleaseSpec } from "../../api/helm/helmrelease.js";
import { parseDuration } from "../../util/duration.js";

export const intervalMs = (spec: HelmReleaseSpec) => parseDuration(spec.interval);
export const timeoutMs = (spec: HelmReleaseSpec) => parseDuration(spec.timeout ?? "5m");
/** RetryOnFailure's retryInterval (5m by default) for the active strategy, else undefined (backoff). */
export function retryIntervalMs(spec: HelmReleaseSpec, last: "install" | "upgrade" | undefined): number | undefined {
  const strategy = (last === "upgrade" ? spec.upgrade : spec.install)?.strategy;
  return strategy?.name === "RetryOnFailure" ? parseDuration(strategy.retryInterval ?? "5m") : undefined;
}
