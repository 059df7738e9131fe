// A reconciler of one kind's objects: how it reads and writes them (objects.ts, or a kind's richer
// version of it) and the one way each of its reconciles ends (finish.ts), wired once for every kind.
import type { KubeObject } from "../../api/meta/object.js";
import type { ReconcileContext, Reconciler, Request, Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import { Finisher } from "./finish.js";
import type { ReconciledObjects } from "./objects.js";

export abstract class ObjectReconciler<
  T extends KubeObject,
  O extends ReconciledObjects<T> = ReconciledObjects<T>,
> implements Reconciler {
  protected readonly finisher: Finisher<T>;

  constructor(
    protected readonly objects: O,
    events: EventRecorder,
  ) {
    this.finisher = new Finisher(objects, events);
  }

  abstract reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void>;
}
