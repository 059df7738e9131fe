// The fleet's own events (decision 0046): what changed since the parent's last status, as Kubernetes
// Events on the FleetKustomization/FleetHelmRelease — which Alerts select like any kind's. Per cluster:
// its child became Ready (at a revision) or started failing; per rollout stage: started, waiting for
// approval, approved, halted, completed. Only transitions are events (an idle fleet says nothing), and
// each carries the cluster or stage in its metadata under the fleet group, which Flux's metadata cleanup
// keeps (as `cluster`, `stage`, `revision` in the payload a provider receives).
import type { ClusterChildStatus, FleetStatus } from "../../api/fleet/fleet-kustomization.js";
import type { RolloutStatus, StageStatus } from "../../api/fleet/rollout.js";
import { FLEET_GROUP } from "../../api/kinds.js";
import type { Row } from "../children/children.js";

export const CLUSTER_METADATA = `${FLEET_GROUP}/cluster`;
export const STAGE_METADATA = `${FLEET_GROUP}/stage`;
export const REVISION_METADATA = `${FLEET_GROUP}/revision`;

export interface FleetEvent {
  type: "Normal" | "Warning";
  reason: string;
  message: string;
  annotations: Record<string, string>;
}

const withRevision = (base: Record<string, string>, revision: string | undefined) =>
  revision ? { ...base, [REVISION_METADATA]: revision } : base;

/** One cluster's child: Ready (again, or at a new revision) or newly failing (or failing differently). */
export function clusterEvents(previous: ClusterChildStatus[] | undefined, rows: Row[]): FleetEvent[] {
  const before = new Map((previous ?? []).map((r) => [r.cluster, r]));
  const out: FleetEvent[] = [];
  for (const row of rows) {
    const was = before.get(row.cluster);
    const annotations = withRevision({ [CLUSTER_METADATA]: row.cluster }, row.revision);
    if (row.state === "ready" && (was?.ready !== "True" || was.revision !== row.revision))
      out.push({
        type: "Normal",
        reason: "ClusterReconciled",
        message: `cluster ${row.cluster}: ${row.child} Ready${row.revision ? ` at ${row.revision}` : ""}`,
        annotations,
      });
    else if (row.state === "failing" && (was?.ready !== "False" || was.message !== row.message))
      out.push({
        type: "Warning",
        reason: "ClusterReconciliationFailed",
        message: `cluster ${row.cluster}: ${row.child}: ${row.message ?? "not Ready"}`,
        annotations,
      });
  }
  return out;
}

const moving = (s: StageStatus | undefined) => s?.phase === "Progressing" || s?.phase === "Baking";

function stageEvents(was: StageStatus | undefined, now: StageStatus): FleetEvent[] {
  const meta = (revision: string | undefined) => withRevision({ [STAGE_METADATA]: now.name }, revision);
  const clusters = now.clusters.join(", ") || "no clusters";
  const out: FleetEvent[] = [];
  if (now.approvedRevision && now.approvedRevision !== was?.approvedRevision)
    out.push({
      type: "Normal",
      reason: "RolloutStageApproved",
      message: `stage ${now.name} approved for revision ${now.approvedRevision}`,
      annotations: meta(now.approvedRevision),
    });
  if (moving(now) && (!moving(was) || was?.revision !== now.revision))
    out.push({
      type: "Normal",
      reason: "RolloutStageStarted",
      message: `stage ${now.name} started revision ${now.revision ?? "?"} on ${clusters}`,
      annotations: meta(now.revision),
    });
  if (now.phase === "WaitingForApproval" && (was?.phase !== "WaitingForApproval" || was.revision !== now.revision))
    out.push({
      type: "Normal",
      reason: "RolloutStageWaitingForApproval",
      message: `stage ${now.name}: ${now.message ?? `revision ${now.revision ?? "?"} waits for approval`}`,
      annotations: meta(now.revision),
    });
  if (now.phase === "Halted" && (was?.phase !== "Halted" || was.message !== now.message))
    out.push({
      type: "Warning",
      reason: "RolloutStageHalted",
      message: `stage ${now.name} ${now.message ?? "halted"}`,
      annotations: meta(now.revision),
    });
  if (now.completedRevision && now.completedRevision !== was?.completedRevision)
    out.push({
      type: "Normal",
      reason: "RolloutStageCompleted",
      message: `stage ${now.name} completed revision ${now.completedRevision} on ${clusters}`,
      annotations: meta(now.completedRevision),
    });
  return out;
}

/** Each stage's transitions, in stage order. */
export function rolloutEvents(previous: RolloutStatus | undefined, now: RolloutStatus | undefined): FleetEvent[] {
  if (!now) return [];
  const before = new Map((previous?.stages ?? []).map((s) => [s.name, s]));
  return now.stages.flatMap((s) => stageEvents(before.get(s.name), s));
}

/** Everything a fan-out reconcile has news of, rollout first (a stage starting explains its clusters' events). */
export function fleetEvents(
  previous: FleetStatus | undefined,
  rows: Row[],
  rollout: RolloutStatus | undefined,
): FleetEvent[] {
  return [...rolloutEvents(previous?.rollout, rollout), ...clusterEvents(previous?.clusters, rows)];
}
