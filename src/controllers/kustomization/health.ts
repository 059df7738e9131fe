// Health after apply: with spec.wait every applied object, else spec.healthChecks; the Healthy
// condition says which way it went (the message names what is not ready and why). Objects of a kind
// named in spec.healthCheckExprs are judged by those CEL expressions instead of kstatus; the
// expressions are compiled at the start of the reconcile, and one that does not parse stalls it.
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { Cluster } from "../../kube/cluster.js";
import { setCondition } from "../../runtime/conditions.js";
import type { Condition } from "../../api/meta/conditions.js";
import { type ChangeSetEntry, type ExpressionHealth, waitForSet } from "../../ssa/index.js";
import { ReconcileFailure } from "../kit/failure.js";
import { compileHealthChecksOrStall } from "../kit/health-expressions.js";
import { reconcileTimeoutMs } from "./timing.js";

/** spec.healthCheckExprs compiled; a bad expression is Stalled/InvalidCELExpression naming it. */
export function compileHealthChecks(spec: Kustomization["spec"]): ExpressionHealth | undefined {
  return compileHealthChecksOrStall(spec.healthCheckExprs);
}

/** Returns the conditions with Healthy set, or throws HealthCheckFailed carrying them. */
export async function checkHealth(
  ks: Kustomization,
  target: Cluster,
  changeSet: ChangeSetEntry[],
  conditions: Condition[],
  expressions?: ExpressionHealth,
): Promise<Condition[]> {
  const spec = ks.spec;
  const refs = spec.wait
    ? changeSet.map((e) => ({
        apiVersion: e.group ? `${e.group}/${e.version}` : e.version,
        kind: e.kind,
        metadata: { name: e.name, namespace: e.namespace || undefined },
      }))
    : (spec.healthChecks ?? []).map((h) => ({
        apiVersion: h.apiVersion ?? "apps/v1",
        kind: h.kind,
        metadata: { name: h.name, namespace: h.namespace ?? ks.metadata.namespace },
      }));
  if (!refs.length) return conditions;
  const mark = { type: "Healthy", observedGeneration: ks.metadata.generation };
  try {
    await waitForSet(target, refs, { timeoutMs: reconcileTimeoutMs(spec), intervalMs: 2000, expressions });
    return setCondition(conditions, { ...mark, status: "True", reason: "Succeeded", message: "Health check passed" });
  } catch (err) {
    const message = (err as Error).message;
    throw new HealthCheckFailure(
      `health check failed: ${message}`,
      setCondition(conditions, { ...mark, status: "False", reason: "HealthCheckFailed", message }),
    );
  }
}

export class HealthCheckFailure extends ReconcileFailure {
  constructor(
    message: string,
    readonly conditions: Condition[],
  ) {
    super("HealthCheckFailed", message);
  }
}
