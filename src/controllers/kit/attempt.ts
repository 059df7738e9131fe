// One reconcile attempt of an app kind (Kustomization, HelmRelease) as its status records it: the
// conditions it got to and the kind's status fields, written whatever the outcome (what was applied
// before a failure stays recorded), and the outcome itself — the success the attempt returns or the
// failure it throws, as Flux's reconcilers defer their status patch over both.
import type { Condition } from "../../api/meta/conditions.js";
import { asFailure, ReconcileFailure } from "./failure.js";
import type { Outcome, Success } from "./outcome.js";

/** What an attempt got to, success or not: the partial status the reconcile writes with its outcome. */
export interface Attempted {
  conditions: Condition[];
  /** The kind's status fields (inventory, history, revisions, counters...). */
  status: Record<string, unknown>;
}

/** The attempt's outcome: what `work` returns, or what it throws (any other error as ReconciliationFailed). */
export async function attemptOutcome(work: () => Promise<Success>): Promise<Outcome> {
  try {
    return await work();
  } catch (err) {
    return asFailure(err, (m) => new ReconcileFailure("ReconciliationFailed", m));
  }
}
