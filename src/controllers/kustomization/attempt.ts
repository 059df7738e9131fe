// One reconcile attempt of a Kustomization as its status records it: what it got to (revision,
// digest of the built set, inventory, conditions), the "in progress" conditions Flux shows while it
// applies, the status fields and history snapshot it writes, and where its time went (debug log).
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { Condition } from "../../api/meta/conditions.js";
import type { Inventory } from "../../api/meta/inventory.js";
import type { ReconcileContext } from "../../runtime/controller.js";
import type { Attempted } from "../kit/attempt.js";
import type { DeferredWrite } from "../kit/deferred-write.js";
import { isFailure, type Outcome, progressing } from "../kit/outcome.js";
import { goDuration, upsertHistory } from "./history.js";
import { reconcileTimeoutMs } from "./timing.js";

/** What one attempt got to; what is known is written to status whatever the outcome (as kit/attempt.ts). */
export interface Attempt extends Pick<Attempted, "conditions"> {
  revision?: string;
  digest?: string;
  inventory?: Inventory;
  /** When each phase ended (ms since epoch), for the debug log of where time goes. */
  phases: Record<string, number>;
}

/** Reconciling=True and Ready=Unknown, with Flux's message. */
export function progressingConditions(ks: Kustomization, attempt: Attempt): Condition[] {
  const timeout = goDuration(reconcileTimeoutMs(ks.spec));
  const message = `Detecting drift for revision ${attempt.revision} with a timeout of ${timeout}`;
  return progressing(attempt.conditions, ks.metadata.generation, message);
}

/**
 * New work (revision or generation): Reconciling=True, as Flux shows "Reconciliation in progress" —
 * written only if the attempt is still running after the deferred write's delay (kit/deferred-write.ts),
 * so a quick reconcile writes its status once.
 */
export function markProgressing(
  ks: Kustomization,
  attempt: Attempt,
  progress: DeferredWrite,
  patchStatus: (status: Record<string, unknown>) => Promise<void>,
  ctx: ReconcileContext,
): void {
  attempt.conditions = progressingConditions(ks, attempt);
  const status = { lastAttemptedRevision: attempt.revision, conditions: attempt.conditions };
  progress.schedule(
    () => patchStatus(status),
    (err) => ctx.log.debug("in-progress status not written", { error: (err as Error).message }),
  );
}

/**
 * The status fields an attempt writes: what it got to, even when it failed (what was applied before
 * a failure stays in the inventory, so a later prune still finds it); lastAppliedRevision on success.
 */
export function attemptStatus(ks: Kustomization, attempt: Attempt, outcome: Outcome, started: number) {
  return {
    lastAttemptedRevision: attempt.revision,
    ...(isFailure(outcome) ? {} : { lastAppliedRevision: attempt.revision }),
    inventory: attempt.inventory,
    history: attemptHistory(ks, attempt, outcome.reason, started),
  };
}

/** status.history with this attempt counted (unchanged when nothing was built). */
function attemptHistory(ks: Kustomization, attempt: Attempt, status: string, started: number) {
  if (!attempt.digest) return ks.status?.history;
  return upsertHistory(ks.status?.history, {
    digest: attempt.digest,
    status,
    at: new Date(),
    durationMs: Date.now() - started,
    metadata: attempt.revision ? { revision: attempt.revision } : undefined,
  });
}

/** `{fetchedMs: 12, builtMs: 40, ...}`: milliseconds each phase took. */
export function phaseDurations(phases: Record<string, number>): Record<string, number> {
  const entries = Object.entries(phases).sort((a, b) => a[1] - b[1]);
  return Object.fromEntries(entries.slice(1).map(([name, at], i) => [`${name}Ms`, at - entries[i]![1]]));
}
