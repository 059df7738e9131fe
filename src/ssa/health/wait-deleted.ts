// Waiting for deleted objects to leave the API (finalizers done, garbage collector finished): what
// Flux's WaitForTermination deletion policy blocks on.
import { setTimeout as sleep } from "node:timers/promises";
import type { Cluster, ObjectRef } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import { objectId } from "../../kube/object.js";

/** Resolves with the objects still present when the timeout passed (empty when all are gone). */
export async function waitForTermination(
  cluster: Cluster,
  refs: ObjectRef[],
  options: { timeoutMs: number; intervalMs?: number },
): Promise<string[]> {
  const deadline = Date.now() + options.timeoutMs;
  let remaining = refs;
  for (;;) {
    const present = await Promise.all(
      remaining.map(async (r) => {
        try {
          return (await cluster.get(r)) ? r : undefined;
        } catch (err) {
          return err instanceof NotFoundError ? undefined : r;
        }
      }),
    );
    remaining = present.filter((r): r is ObjectRef => r !== undefined);
    if (remaining.length === 0 || Date.now() >= deadline) return remaining.map(objectId);
    await sleep(Math.min(options.intervalMs ?? 1000, Math.max(0, deadline - Date.now())));
  }
}
