// Flux's timing defaults for a Kustomization: retryInterval defaults to interval, timeout to
// interval − 30 s with a floor of 30 s.
import type { KustomizationSpec } from "../../api/kustomize/kustomization.js";
import { parseDuration } from "../../util/duration.js";

export const intervalMs = (spec: KustomizationSpec) => parseDuration(spec.interval);

export const retryIntervalMs = (spec: KustomizationSpec) =>
  spec.retryInterval ? parseDuration(spec.retryInterval) : intervalMs(spec);

export const reconcileTimeoutMs = (spec: KustomizationSpec) =>
  spec.timeout ? parseDuration(spec.timeout) : Math.max(intervalMs(spec) - 30_000, 30_000);
