// The Flux Operator's annotations on its own kinds (api/v1 common_types.go), read alike by the
// FluxInstance, FluxReport, ResourceSet and ResourceSetInputProvider controllers: reconcile: disabled,
// reconcileEvery and reconcileTimeout (each kind has its own defaults), and Go's duration printing for
// the messages they write.
import type { KubeObject } from "../../api/meta/object.js";
import { OPERATOR_ANNOTATIONS } from "../../api/operator/resourceset.js";
import { parseDuration } from "../../util/duration.js";

export const isDisabled = (o: KubeObject) =>
  o.metadata.annotations?.[OPERATOR_ANNOTATIONS.reconcile]?.toLowerCase() === "disabled";

/** The annotation's duration in ms, or the fallback when absent or not a duration (as the operator). */
export function annotatedMs(o: KubeObject, which: "reconcileEvery" | "reconcileTimeout", fallbackMs: number): number {
  const v = o.metadata.annotations?.[OPERATOR_ANNOTATIONS[which]];
  if (!v) return fallbackMs;
  try {
    return parseDuration(v);
  } catch {
    return fallbackMs;
  }
}

/** Go's time.Duration.String() for a reconcile's length, e.g. "1.52s", "250ms". */
export function goDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.round(ms) / 1000;
  if (s < 60) return `${Number(s.toFixed(3))}s`;
  const m = Math.floor(s / 60);
  return `${m}m${Number((s - m * 60).toFixed(3))}s`;
}
