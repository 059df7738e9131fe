// dependsOn as the operator checks it: each object (any kind) must exist; with `ready: true` its Ready
// condition must be True. Not met: Ready=False DependencyNotReady "Retrying dependency check: ...",
// retried after --requeue-dependency.
import type { Condition } from "../../api/meta/conditions.js";
import type { ResourceSet } from "../../api/operator/resourceset.js";
import type { Cluster } from "../../kube/cluster.js";
import { ReconcileFailure } from "../kit/failure.js";

export async function checkDependencies(cluster: Cluster, rset: ResourceSet, waitMs: number): Promise<void> {
  for (const dep of rset.spec.dependsOn ?? []) {
    const ns = dep.namespace ?? "";
    const id = `${dep.apiVersion}/${dep.kind}/${ns ? `${ns}/` : ""}${dep.name}`;
    const notReady = (why: string) =>
      new ReconcileFailure("DependencyNotReady", `Retrying dependency check: dependency ${id} ${why}`, {
        retryAfterMs: waitMs,
      });
    let found;
    try {
      found = await cluster.get({
        apiVersion: dep.apiVersion,
        kind: dep.kind,
        metadata: { name: dep.name, namespace: ns || undefined },
      });
    } catch (err) {
      throw notReady(`not found: ${(err as Error).message}`);
    }
    if (!found) throw notReady("not found");
    if (!dep.ready) continue;
    const ready = ((found.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).find(
      (c) => c.type === "Ready",
    );
    if (ready?.status !== "True") throw notReady("not ready");
  }
}
