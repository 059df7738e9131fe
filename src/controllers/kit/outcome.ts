// How a reconcile's outcome shows, as Flux's controllers show it — pure rules, no I/O:
// - success: Ready=True with the kind's reason and message; Reconciling and Stalled removed;
// - failure: Ready=False with the failure's reason and message; Stalled=True only for a stalled
//   failure (removed otherwise); a Reconciling left by the attempt stays, as ProgressingWithRetry;
// - next run: success after the interval; a stalled failure never (only a spec change helps); a
//   wait after its retryAfterMs; any other failure after the retry interval, or with the work
//   queue's backoff for kinds without one (the sources).
import { removeCondition, setCondition } from "../../runtime/conditions.js";
import { type Condition, READY, RECONCILING, STALLED } from "../../api/meta/conditions.js";
import { type Result } from "../../runtime/controller.js";
import { REQUESTED_AT_ANNOTATION } from "../../api/meta/annotations.js";
import type { KubeObject } from "../../api/meta/object.js";
import { ReconcileFailure } from "./failure.js";

export interface Success {
  reason: string;
  message: string;
  /** A Normal event, when the kind judges this success news (a new artifact, a new chart). */
  event?: { reason: string; message: string; annotations?: Record<string, string> };
}

export type Outcome = Success | ReconcileFailure;

export const isFailure = (o: Outcome): o is ReconcileFailure => o instanceof ReconcileFailure;

/** A failure that waits on another object rather than reporting an error. */
export const isWait = (f: ReconcileFailure) => !f.stalled && f.retryAfterMs !== undefined;

export interface Timing {
  intervalMs: number;
  /** Flux's spec.retryInterval; without it a failure backs off per key (source-controller's way). */
  retryIntervalMs?: number;
}

export const PROGRESSING_WITH_RETRY = "ProgressingWithRetry";

export function finishedConditions(conditions: Condition[], generation: number | undefined, outcome: Outcome) {
  const mark = { reason: outcome.reason, message: outcome.message, observedGeneration: generation };
  if (!isFailure(outcome)) {
    const settled = removeCondition(removeCondition(conditions, RECONCILING), STALLED);
    return setCondition(settled, { type: READY, status: "True", ...mark });
  }
  let out = setCondition(conditions, { type: READY, status: "False", ...mark });
  out = outcome.stalled ? setCondition(out, { type: STALLED, status: "True", ...mark }) : removeCondition(out, STALLED);
  const reconciling = out.find((c) => c.type === RECONCILING);
  return reconciling ? setCondition(out, { ...reconciling, reason: PROGRESSING_WITH_RETRY }) : out;
}

export function nextRun(outcome: Outcome, timing: Timing): Result {
  if (!isFailure(outcome)) return { requeueAfterMs: timing.intervalMs };
  if (outcome.stalled) return {};
  if (outcome.retryAfterMs !== undefined) return { requeueAfterMs: outcome.retryAfterMs };
  return timing.retryIntervalMs !== undefined ? { requeueAfterMs: timing.retryIntervalMs } : { backoff: true };
}

/** Reconciling=True and Ready=Unknown while new work (a revision, a generation) is applied. */
export function progressing(conditions: Condition[], generation: number | undefined, message: string) {
  const mark = { reason: "Progressing", observedGeneration: generation };
  const out = setCondition(conditions, { type: RECONCILING, status: "True", message, ...mark });
  return setCondition(out, { type: READY, status: "Unknown", message: "Reconciliation in progress", ...mark });
}

/** status.lastHandledReconcileAt: the reconcile.fluxcd.io/requestedAt annotation this reconcile handled. */
export function handledAt(obj: KubeObject): string | undefined {
  return (
    obj.metadata.annotations?.[REQUESTED_AT_ANNOTATION] ??
    (obj.status as { lastHandledReconcileAt?: string } | undefined)?.lastHandledReconcileAt
  );
}
