// The one way a reconcile ends, whatever the kind: one status patch (the kind's fields, then
// lastHandledReconcileAt, observedGeneration and Ready/Reconciling/Stalled by outcome.ts's rules),
// then the Event (Normal when the kind says a success is news, Warning for every failure but a
// wait), one log line, and the next run. A suspended object is handled here too, as Flux does:
// logged, no requeue, and nothing in status but lastHandledReconcileAt.
import type { KubeObject } from "../../api/meta/object.js";
import type { Condition } from "../../api/meta/conditions.js";
import { type ReconcileContext, type Result } from "../../runtime/controller.js";
import { REQUESTED_AT_ANNOTATION } from "../../api/meta/annotations.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { ReconciledObjects } from "./objects.js";
import { finishedConditions, handledAt, isFailure, isWait, nextRun, type Outcome, type Timing } from "./outcome.js";

export const SUSPENDED_MESSAGE = "Reconciliation is suspended for this object";

export interface Report {
  outcome: Outcome;
  /** The object's conditions with the kind's own types set; Ready, Reconciling and Stalled are the kit's. */
  conditions: Condition[];
  /** The kind's status fields written with the outcome (artifact, inventory, revisions...). */
  status?: Record<string, unknown>;
  timing: Timing;
  /** Metadata every event of this reconcile carries (Flux's revision annotations, which commit statuses read). */
  eventAnnotations?: Record<string, string>;
}

export class Finisher<T extends KubeObject> {
  constructor(
    private readonly objects: ReconciledObjects<T>,
    private readonly events: EventRecorder,
  ) {}

  async finish(obj: T, path: string, ctx: ReconcileContext, report: Report): Promise<Result> {
    const { outcome } = report;
    const generation = obj.metadata.generation;
    await this.objects.patchStatus(obj, path, {
      ...report.status,
      lastHandledReconcileAt: handledAt(obj),
      observedGeneration: generation,
      conditions: finishedConditions(report.conditions, generation, outcome),
    });
    const next = nextRun(outcome, report.timing);
    const when = next.backoff ? { backoff: true } : { requeueAfterMs: next.requeueAfterMs };
    if (!isFailure(outcome)) {
      if (outcome.event) {
        const { reason, message, annotations } = outcome.event;
        await this.events.record(obj, "Normal", reason, message, { ...report.eventAnnotations, ...annotations });
      }
      ctx.log.info("Reconciliation finished", { reason: outcome.reason, message: outcome.message, ...when });
    } else if (isWait(outcome)) {
      ctx.log.info(outcome.message, { reason: outcome.reason, ...when });
    } else {
      await this.events.record(obj, "Warning", outcome.reason, outcome.message, report.eventAnnotations);
      ctx.log.error(outcome.message, { reason: outcome.reason, ...(outcome.stalled ? { stalled: true } : when) });
    }
    return next;
  }

  /** A suspended object: no reconcile, no requeue. */
  async suspended(obj: T, path: string, ctx: ReconcileContext): Promise<void> {
    ctx.log.info(SUSPENDED_MESSAGE);
    const requestedAt = obj.metadata.annotations?.[REQUESTED_AT_ANNOTATION];
    if (requestedAt) await this.objects.patchStatus(obj, path, { lastHandledReconcileAt: requestedAt });
  }
}
