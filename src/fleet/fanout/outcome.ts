// How a fan-out reconcile ends: the counts and the per-cluster table in status, and Ready from the
// clusters' children — or, while a staged rollout is under way, from the rollout: halted (a Warning,
// naming the failing clusters), waiting for approval, or progressing (rechecked while it bakes).
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { FleetStatus } from "../../api/fleet/fleet-kustomization.js";
import { ReconcileFailure } from "../../controllers/kit/failure.js";
import type { Outcome } from "../../controllers/kit/outcome.js";
import type { Plan } from "../rollout/plan.js";
import type { ChildState, Row } from "../children/children.js";

/** The row of a cluster whose stage has not received any revision yet. */
export function waitingForStage(plan: Plan, cluster: string): Omit<Row, "child"> {
  const stage = plan.status.stages.find((s) => s.clusters.includes(cluster));
  return {
    cluster,
    ready: "Unknown",
    message: `stage ${stage?.name ?? "?"} has no revision yet: ${stage?.message ?? ""}`.trim(),
    state: "waiting",
  };
}

export function fanOutOutcome(
  rows: Row[],
  plan: Plan | undefined,
  recheckMs: number,
): { outcome: Outcome; status: Record<string, unknown> } {
  const count = (s: ChildState) => rows.filter((r) => r.state === s).length;
  const counts = {
    total: rows.length,
    ready: count("ready"),
    failing: count("failing"),
    progressing: count("progressing"),
    waiting: count("waiting"),
  };
  const status: FleetStatus & Record<string, unknown> = {
    counts,
    clusters: rows.map(({ state: _s, ...r }) => r),
    // null clears a rollout removed from the spec (status is merge-patched).
    rollout: plan ? plan.status : (null as unknown as undefined),
  };
  const summary = `${counts.ready}/${counts.total} clusters ready`;
  if (plan && !plan.done) {
    const halted = plan.status.stages.find((s) => s.phase === "Halted");
    if (halted)
      return { outcome: new ReconcileFailure("RolloutHalted", `stage ${halted.name} ${halted.message}`), status };
    const gate = plan.status.stages.find((s) => s.phase === "WaitingForApproval");
    const current = gate ?? plan.status.stages.find((s) => s.phase !== "Complete") ?? plan.status.stages.at(-1)!;
    const retryAfterMs = Math.min(recheckMs, plan.recheckMs ?? recheckMs);
    return {
      outcome: new ReconcileFailure(
        gate ? "WaitingForApproval" : "RolloutProgressing",
        `${summary}; stage ${current.name}: ${current.message ?? current.phase}`,
        { retryAfterMs },
      ),
      status,
    };
  }
  const notReady = rows.filter((r) => r.state !== "ready");
  const outcome = notReady.length
    ? new ReconcileFailure(
        counts.failing ? "ClustersFailing" : "ClustersProgressing",
        `${summary}; ${notReady.map((r) => `${r.cluster}: ${r.message ?? r.ready}`).join("; ")}`,
        { retryAfterMs: recheckMs },
      )
    : { reason: "ReconciliationSucceeded", message: summary };
  return { outcome, status };
}

/**
 * An invalid rollout stalls the parent, and nothing moves meanwhile — not even the removal of the children of
 * clusters no longer selected: the message names them, so nobody wonders why they are still there.
 */
export function invalidRollout(err: Error, childClusters: string[], selected: FleetCluster[]): ReconcileFailure {
  const kept = childClusters.filter((k) => !selected.some((c) => c.metadata.name === k));
  const note = kept.length ? ` (the children of ${kept.join(", ")}, no longer selected, stay until it is fixed)` : "";
  return new ReconcileFailure("InvalidRollout", `${err.message}${note}`, { stalled: true });
}
