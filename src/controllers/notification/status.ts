// Ready on Alerts and Providers: Flux's v1beta3 kinds have no status (they are static), so flotilla
// states there what stops notifications — a type it does not deliver, a Secret or key missing, a
// Provider an Alert names that does not exist, and a Provider's last delivery failing (decision 0037).
import type { Condition } from "../../api/meta/conditions.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { KindEntry } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { KubeClient } from "../../kube/client.js";
import { NotFoundError } from "../../kube/errors.js";
import { setCondition } from "../../runtime/conditions.js";

export interface ReadyState {
  ready: boolean;
  reason: string;
  message: string;
}

/** Patches Ready when it differs from what the object shows; a gone object is left alone. */
export async function writeReady(client: KubeClient, kind: KindEntry, obj: KubeObject, s: ReadyState): Promise<void> {
  const status = (obj as { status?: { conditions?: Condition[]; observedGeneration?: number } }).status;
  const now = status?.conditions?.find((c) => c.type === "Ready");
  const want = s.ready ? "True" : "False";
  if (
    now?.status === want &&
    now.reason === s.reason &&
    now.message === s.message &&
    status?.observedGeneration === obj.metadata.generation
  )
    return;
  const conditions = setCondition(status?.conditions ?? [], {
    type: "Ready",
    status: want,
    reason: s.reason,
    message: s.message,
    observedGeneration: obj.metadata.generation,
  });
  try {
    await client.patch(pathOf(kind, obj.metadata.namespace, obj.metadata.name, "status"), "merge", {
      status: { observedGeneration: obj.metadata.generation, conditions },
    });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}
