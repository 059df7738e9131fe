// Shared by the source reconcilers: finalizer handling, status patches, Flux's Ready summary.
import type { Cluster } from "../kube/cluster.js";
import { NotFoundError } from "../kube/errors.js";
import type { KubeObject } from "../kube/object.js";
import { type Condition, READY, setCondition } from "../runtime/conditions.js";
import type { Storage } from "../sources/artifact/storage.js";

export const SOURCE_FINALIZER = "finalizers.fluxcd.io";
const CLEARED_ON_SUCCESS = [
  "FetchFailed",
  "IncludeUnavailable",
  "ArtifactOutdated",
  "StorageOperationFailed",
  "BuildFailed",
  "Reconciling",
  "Stalled",
];

/** Reads the object; handles deletion (artifacts removed, finalizer dropped) and adds the finalizer. */
export async function prepare<T extends KubeObject>(
  cluster: Cluster,
  path: string,
  storage: Storage,
  storageDir: string,
): Promise<T | undefined> {
  let obj: T;
  try {
    obj = await cluster.client.get<T>(path);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
  const finalizers = obj.metadata.finalizers ?? [];
  if (obj.metadata.deletionTimestamp) {
    storage.removeAll(storageDir);
    if (finalizers.includes(SOURCE_FINALIZER)) {
      await cluster.client.patch(path, "merge", {
        metadata: {
          finalizers: finalizers.filter((f) => f !== SOURCE_FINALIZER),
          resourceVersion: obj.metadata.resourceVersion,
        },
      });
    }
    return undefined;
  }
  if (!finalizers.includes(SOURCE_FINALIZER)) {
    obj = await cluster.client.patch<T>(path, "merge", {
      metadata: { finalizers: [...finalizers, SOURCE_FINALIZER], resourceVersion: obj.metadata.resourceVersion },
    });
  }
  return obj;
}

export function succeeded(
  conditions: Condition[] | undefined,
  generation: number | undefined,
  reason: string,
  message: string,
): Condition[] {
  let out = (conditions ?? []).filter((c) => !CLEARED_ON_SUCCESS.includes(c.type));
  out = setCondition(out, {
    type: "ArtifactInStorage",
    status: "True",
    reason,
    message,
    observedGeneration: generation,
  });
  return setCondition(out, { type: READY, status: "True", reason, message, observedGeneration: generation });
}

/**
 * Ready=False with the failure's reason, and the negative-polarity condition that names the failing
 * step (FetchFailed by default; IncludeUnavailable, StorageOperationFailed, BuildFailed...) set True.
 * SourceVerified is the exception: it is bipolar, so a failed verification sets it False.
 */
export function failed(
  conditions: Condition[] | undefined,
  generation: number | undefined,
  reason: string,
  message: string,
  conditionType = "FetchFailed",
): Condition[] {
  const status = conditionType === "SourceVerified" ? "False" : "True";
  const out = setCondition(conditions ?? [], {
    type: conditionType,
    status,
    reason,
    message,
    observedGeneration: generation,
  });
  return setCondition(out, { type: READY, status: "False", reason, message, observedGeneration: generation });
}

export async function patchStatus(cluster: Cluster, path: string, status: Record<string, unknown>): Promise<void> {
  await cluster.client.patch(`${path}/status`, "merge", { status });
}
