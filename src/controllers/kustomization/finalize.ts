// Deleting a Kustomization: garbage-collect what it applied according to spec.deletionPolicy, then
// release the finalizer. Flux can leave a Kustomization stuck for ever when its remote cluster is
// gone (kustomize-controller#487); flotilla bounds the attempt instead:
// - the kubeconfig Secret is gone → the cluster is treated as gone: nothing to collect, released;
// - the cluster does not answer → Ready=False says so and when flotilla will give up, retried every
//   retryInterval until spec.timeout after the deletion request, then released with a Warning event
//   listing what was left behind;
// - `deletionPolicy: Orphan` set on the deleting object releases it at once (the documented way out).
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import { KUSTOMIZE_GROUP } from "../../api/kinds.js";
import type { Cluster } from "../../kube/cluster.js";
import { objectId } from "../../kube/object.js";
import type { ReconcileContext, Result } from "../../runtime/controller.js";
import { waitForTermination } from "../../ssa/health/wait-deleted.js";
import { pruneStale } from "../../ssa/index.js";
import { refFromEntry } from "../../ssa/inventory.js";
import { type BoundedFinalizeDeps, finalizeBounded } from "../kit/finalize.js";
import { KubeconfigSecretNotFound } from "../kit/target-cluster.js";
import { reconcileTimeoutMs } from "./timing.js";

export type DeletionPolicy = "MirrorPrune" | "Delete" | "WaitForTermination" | "Orphan";

function deletesOnRemoval(ks: Kustomization): boolean {
  const policy = (ks.spec.deletionPolicy ?? "MirrorPrune") as DeletionPolicy;
  return policy === "Delete" || policy === "WaitForTermination" || (policy === "MirrorPrune" && ks.spec.prune);
}

export interface FinalizeDeps extends BoundedFinalizeDeps {
  target: () => Promise<Cluster>;
}

export async function finalizeKustomization(
  ks: Kustomization,
  deps: FinalizeDeps,
  ctx: ReconcileContext,
): Promise<Result | void> {
  const inventory = ks.status?.inventory?.entries ?? [];
  if (!deletesOnRemoval(ks) || !inventory.length) return deps.release();
  return finalizeBounded(ks, deps, () => collect(ks, deps, ctx), {
    timeoutMs: reconcileTimeoutMs(ks.spec),
    reason: "PruneFailed",
    what: "garbage collection",
    stopHint: "set spec.deletionPolicy: Orphan to stop now",
  });
}

/** Deletes the inventory; returns why it could not (undefined when done or nothing to do). */
async function collect(ks: Kustomization, deps: FinalizeDeps, ctx: ReconcileContext): Promise<string | undefined> {
  let target: Cluster;
  try {
    target = await deps.target();
  } catch (err) {
    if (err instanceof KubeconfigSecretNotFound) {
      await deps.events.record(
        ks,
        "Warning",
        "PruneSkipped",
        `skipping garbage collection: ${err.message}; the remote cluster is considered gone`,
      );
      return undefined;
    }
    return (err as Error).message;
  }
  const owner = { group: KUSTOMIZE_GROUP, name: ks.metadata.name, namespace: ks.metadata.namespace! };
  const result = await pruneStale(target, ks.status!.inventory, { entries: [] }, { owner, allowEmptySet: true });
  if (result.errors.length) {
    ctx.log.error("garbage collection of a deleted Kustomization failed", { errors: result.errors });
    return `failed to delete ${result.failed.length} object(s): ${result.errors.join("; ")}`;
  }
  if ((ks.spec.deletionPolicy ?? "MirrorPrune") === "WaitForTermination") {
    const deleted = new Set(result.changeSet.filter((e) => e.action === "deleted").map((e) => e.subject));
    const refs = ks.status!.inventory!.entries.map(refFromEntry).filter((r) => deleted.has(objectId(r)));
    const left = await waitForTermination(target, refs, { timeoutMs: reconcileTimeoutMs(ks.spec) });
    // Flux stops waiting at the timeout, logs, and lets the object go.
    if (left.length) ctx.log.error("objects still terminating after spec.timeout", { objects: left });
  }
  return undefined;
}
