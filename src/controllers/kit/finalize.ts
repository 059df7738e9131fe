// Bounded finalization (decision 0011), for every kind that cleans up on deletion (Kustomization's garbage
// collection, HelmRelease's uninstall): Flux can leave an object stuck for ever when its remote cluster is
// gone (kustomize-controller#487); flotilla retries the cleanup until spec.timeout after the deletion
// request, says so in Ready=False, then releases the finalizer with a Warning event naming what was left.
import { type Condition, READY } from "../../api/meta/conditions.js";
import type { KubeObject } from "../../api/meta/object.js";
import { setCondition } from "../../runtime/conditions.js";
import type { Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";

export interface BoundedFinalizeDeps {
  events: EventRecorder;
  patchStatus: (status: Record<string, unknown>) => Promise<void>;
  /** Removes the finalizer: the object goes. */
  release: () => Promise<void>;
  retryMs: number;
  now?: () => number;
}

/**
 * Any kind's cleanup on deletion, bounded (decision 0011): `cleanup` returns why it is blocked, or
 * undefined when done; blocked, it is retried until `timeoutMs` after the deletion request, then the
 * finalizer goes with a Warning event naming what was left.
 */
export async function finalizeBounded(
  obj: KubeObject & { status?: { conditions?: Condition[] } },
  deps: BoundedFinalizeDeps,
  cleanup: () => Promise<string | undefined>,
  o: { timeoutMs: number; reason: string; what: string; stopHint: string },
): Promise<Result | void> {
  const blocked = await cleanup();
  if (blocked) {
    const deadline = Date.parse(obj.metadata.deletionTimestamp!) + o.timeoutMs;
    const now = deps.now?.() ?? Date.now();
    if (now < deadline) {
      const message =
        `deletion blocked: ${blocked}; retrying until ${new Date(deadline).toISOString()}, ` +
        `then the finalizer is removed and the objects are left; ${o.stopHint}`;
      await deps.patchStatus({
        conditions: setCondition(obj.status?.conditions ?? [], {
          type: READY,
          status: "False",
          reason: o.reason,
          message,
          observedGeneration: obj.metadata.generation,
        }),
      });
      await deps.events.record(obj, "Warning", o.reason, message);
      return { requeueAfterMs: Math.min(deps.retryMs, Math.max(1000, deadline - now)) };
    }
    await deps.events.record(obj, "Warning", o.reason, `gave up ${o.what} after spec.timeout; left behind: ${blocked}`);
  }
  await deps.release();
}
