// A ResourceSet that targets Clusters, staged by fleet.flotilla.dev/rollout (decision 0053): the fleet
// kinds' rollout plan (controllers/kit/rollout-plan.ts) over the selected Clusters, each a member pinned to
// the render it holds (status.clusterInventories[].revision). A new render reaches the first stage's
// Clusters; a later stage keeps what it holds — not applied, not pruned — until the stage before it has run
// the render Ready for its bakeTime (and, if Manual, was approved). A ResourceSet keeps no past renders, so
// a stage only ever moves to the current one: while the stage before it moves on to a newer render, it holds.
import type { FleetCluster } from "../../api/fleet/cluster.js";
import { type Rollout, UNSTAGED } from "../../api/fleet/rollout.js";
import type { ClusterInventory } from "../../api/operator/resourceset.js";
import type { RolloutStatus } from "../../api/fleet/rollout.js";
import { selects } from "../kit/cluster-selects.js";
import { digestOf, type Member, type Plan, type PlanInput, planRollout } from "../kit/rollout-plan.js";

const same = (a: string | undefined, b: string | undefined) => !!a && !!b && digestOf(a) === digestOf(b);

/** A member per selected Cluster, in the first stage whose selector picks it (else the last, "unstaged"). */
export function stageMembers(
  rollout: Rollout,
  clusters: FleetCluster[],
  entries: ClusterInventory[],
): PlanInput["stages"] {
  const stages: PlanInput["stages"] = rollout.stages.map((s) => ({ ...s, members: [] }));
  const unstaged: PlanInput["stages"][number] = { name: UNSTAGED, members: [] };
  for (const c of clusters) {
    const name = c.metadata.name;
    const entry = entries.find((e) => e.cluster === name && !e.leftAt);
    const ready = c.status?.conditions?.find((x) => x.type === "Ready");
    const member: Member = {
      cluster: name,
      // Applied directly, not through a child: only a Cluster its probe says is down waits.
      clusterReady: ready?.status !== "False",
      ...(entry?.revision ? { pinned: entry.revision } : {}),
      ...(entry?.revision
        ? entry.failure
          ? { state: "failing" as const, message: entry.failure }
          : { state: "ready" as const, applied: entry.revision }
        : {}),
    };
    (stages.find((s) => selects(s.clusterSelector ?? {}, c)) ?? unstaged).members.push(member);
  }
  return unstaged.members.length ? [...stages, unstaged] : stages;
}

export interface StagingInput {
  rollout: Rollout;
  clusters: FleetCluster[];
  entries: ClusterInventory[];
  /** The current render's revision. */
  live: string;
  previous?: RolloutStatus;
  approved?: string;
  approveHint: string;
  now: Date;
}

export interface Staged {
  /** The Clusters to apply the current render to now: those it reached before, and those it moves to. */
  apply: Set<string>;
  plan: Plan;
}

export function stageTargets(input: StagingInput): Staged {
  const stages = stageMembers(input.rollout, input.clusters, input.entries);
  const plan = planRollout({
    stages,
    live: input.live,
    ...(input.previous ? { previous: input.previous } : {}),
    ...(input.approved ? { approved: input.approved } : {}),
    now: input.now,
    approveHint: input.approveHint,
  });
  const apply = new Set<string>();
  for (const m of stages.flatMap((s) => s.members)) if (same(m.pinned, input.live)) apply.add(m.cluster);
  for (const [cluster, revision] of plan.moves) {
    if (same(revision, input.live)) apply.add(cluster);
    else plan.moves.delete(cluster);
  }
  // A stage offered a render that is no longer the current one cannot be given it: it holds.
  for (const s of plan.status.stages) {
    if (!s.revision || same(s.revision, input.live) || same(s.completedRevision, s.revision)) continue;
    const stage = stages.find((x) => x.name === s.name);
    if (!stage?.members.some((m) => !same(m.pinned, s.revision))) continue;
    s.phase = "Waiting";
    s.message = `holds what it has: the render the stage before it completed (${s.revision}) is superseded by ${input.live}; waits for that stage to complete ${input.live}`;
  }
  return { apply, plan };
}

/** One line for Ready's message: where the rollout stands. */
export function rolloutSummary(status: RolloutStatus): string {
  return status.stages.map((s) => `${s.name} ${s.phase}`).join(", ");
}
