// One reconcile attempt of a Kustomization as its status records it: what it got to (revision,
// digest of the built set, inventory, conditions), the "in progress" conditions Flux shows while it
// applies, the history snapshot it adds, and where its time went (debug log).
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import { setCondition } from "../../runtime/conditions.js";
import { type Condition, READY, RECONCILING } from "../../api/meta/conditions.js";
import type { Inventory } from "../../api/meta/inventory.js";
import { goDuration, upsertHistory } from "./history.js";
import { reconcileTimeoutMs } from "./timing.js";

/** What one attempt got to; what is known is written to status whatever the outcome. */
export interface Attempt {
  revision?: string;
  digest?: string;
  inventory?: Inventory;
  conditions: Condition[];
  /** When each phase ended (ms since epoch), for the debug log of where time goes. */
  phases: Record<string, number>;
}

/** Reconciling=True and Ready=Unknown, with Flux's messages. */
export function progressingConditions(ks: Kustomization, attempt: Attempt): Condition[] {
  const mark = { reason: "Progressing", observedGeneration: ks.metadata.generation };
  const timeout = goDuration(reconcileTimeoutMs(ks.spec));
  const conditions = setCondition(attempt.conditions, {
    type: RECONCILING,
    status: "True",
    message: `Detecting drift for revision ${attempt.revision} with a timeout of ${timeout}`,
    ...mark,
  });
  return setCondition(conditions, { type: READY, status: "Unknown", message: "Reconciliation in progress", ...mark });
}

/** status.history with this attempt counted (unchanged when nothing was built). */
export function attemptHistory(ks: Kustomization, attempt: Attempt, status: string, started: number) {
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
