// The staged rollout's decision, pure: given each selected cluster's stage, the revision its child is
// pinned to and how that child is doing, which clusters move to which revision now, and each stage's phase.
// The first stage moves to the source's revision; every later stage to the revision the stage before it
// has *completed* (all its clusters Ready at it for its bakeTime), so a held-back cluster stays where it is.
// A cluster failing at its stage's revision halts that stage: nothing more moves there or after it.
// Here, below both, because the fleet kinds (fleet/rollout) and the ResourceSet (decision 0053) share it.
import type { RolloutStage, RolloutStatus, StageStatus } from "../../api/fleet/rollout.js";
import { parseDuration } from "../../util/duration.js";

/** How a member's child (or a ResourceSet's apply to that cluster) is doing at its pinned revision. */
export type MemberState = "ready" | "failing" | "progressing" | "waiting";

export interface Member {
  cluster: string;
  /** The cluster itself is Ready (reachable): only then can it be given anything. */
  clusterReady: boolean;
  /** The revision its child is pinned to (none: no child yet). */
  pinned?: string;
  /** The child's state and message, describing the pinned revision. */
  state?: MemberState;
  message?: string;
  /** What the child last applied. */
  applied?: string;
}

export interface PlanInput {
  stages: (RolloutStage & { members: Member[] })[];
  /** The source's current revision (undefined while it has none). */
  live?: string;
  previous?: RolloutStatus;
  /** The approval annotation's value, `<stage>@<revision>`. */
  approved?: string;
  now: Date;
  /** How to approve, for the waiting message (e.g. `flotilla approve fleetkustomization apps -n fleet`). */
  approveHint: string;
}

export interface Plan {
  /** Clusters that move now, to the revision given. */
  moves: Map<string, string>;
  status: RolloutStatus;
  /** Check again after this long (a bake in progress). */
  recheckMs?: number;
  /** The whole rollout is at the source's revision, every stage complete. */
  done: boolean;
}

/** Revisions compare by their digest: `main@sha1:abc` and `sha1:abc` name the same commit. */
export const digestOf = (revision: string) => revision.slice(revision.lastIndexOf("@") + 1);
const same = (a: string | undefined, b: string | undefined) => !!a && !!b && digestOf(a) === digestOf(b);

/** How many of a stage's `size` clusters may move at once: a count ≥ 1, or a percentage ≥ 1% (at least one). */
export function budgetOf(maxUnavailable: number | string | undefined, size: number): number {
  if (maxUnavailable === undefined) return size;
  const text = String(maxUnavailable);
  const pct = /^(\d+)%$/.exec(text);
  const count = /^\d+$/.test(text) ? Number(text) : undefined;
  if ((pct && Number(pct[1]) < 1) || count === 0)
    throw new Error(
      `maxUnavailable "${text}" would never move a cluster: use at least 1 (or 1%), or suspend the parent`,
    );
  if (pct) return Math.max(1, Math.floor((size * Number(pct[1])) / 100));
  if (count !== undefined) return count;
  throw new Error(`maxUnavailable "${text}" is neither a count nor a percentage such as "25%"`);
}

export function planRollout(input: PlanInput): Plan {
  const moves = new Map<string, string>();
  // A child made before the rollout existed follows the live source: hold it at what it runs now.
  for (const stage of input.stages)
    stage.members = stage.members.map((m) => {
      if (m.pinned || !m.applied) return m;
      moves.set(m.cluster, m.applied);
      return { ...m, pinned: m.applied };
    });
  const stages: StageStatus[] = [];
  let offered = input.live;
  let recheckMs: number | undefined;
  let done = !!input.live;
  let frozen = false;
  for (const stage of input.stages) {
    const before = input.previous?.stages.find((s) => s.name === stage.name);
    const s = planStage(stage, offered, before, input, frozen ? new Map() : moves);
    if (s.recheckMs !== undefined) recheckMs = Math.min(recheckMs ?? Infinity, s.recheckMs);
    stages.push(s.status);
    if (!same(s.status.completedRevision, input.live) || s.status.phase === "Halted") done = false;
    // After a halted stage nothing moves, not even to what it completed before: the later stages hold.
    if (s.status.phase === "Halted") frozen = true;
    offered = s.status.completedRevision;
  }
  return { moves, status: { ...(input.live ? { revision: input.live } : {}), stages }, recheckMs, done };
}

function planStage(
  stage: PlanInput["stages"][number],
  target: string | undefined,
  before: StageStatus | undefined,
  input: PlanInput,
  moves: Map<string, string>,
): { status: StageStatus; recheckMs?: number } {
  const clusters = stage.members.map((m) => m.cluster);
  // An approval is for one stage at one revision, kept in status once seen (the annotation may move on).
  const approved = !!target && (same(before?.approvedRevision, target) || input.approved === `${stage.name}@${target}`);
  const kept = {
    ...(before?.completedRevision ? { completedRevision: before.completedRevision } : {}),
    ...(approved ? { approvedRevision: target } : {}),
  };
  const status = (phase: StageStatus["phase"], message: string, extra: Partial<StageStatus> = {}): StageStatus => ({
    name: stage.name,
    ...(target ? { revision: target } : {}),
    ...kept,
    phase,
    clusters,
    message,
    ...extra,
  });
  if (!target) return { status: status("Waiting", "waiting for the stage before it to complete a revision") };
  if (!clusters.length) return { status: status("Complete", "no clusters", { completedRevision: target }) };
  const atTarget = stage.members.filter((m) => same(m.pinned, target));
  const failing = atTarget.filter((m) => m.state === "failing");
  if (failing.length)
    return {
      status: status(
        "Halted",
        `halted at ${target}: ${failing.map((m) => `${m.cluster}: ${m.message ?? "failing"}`).join("; ")}`,
      ),
    };
  const candidates = stage.members
    .filter((m) => !same(m.pinned, target) && m.clusterReady)
    .sort((a, b) => Number(b.state === "failing") - Number(a.state === "failing"));
  // The gate holds every move to a revision this stage has neither been approved for nor completed.
  if (stage.approval === "Manual" && candidates.length && !approved && !same(before?.completedRevision, target))
    return {
      status: status(
        "WaitingForApproval",
        `revision ${target} waits for approval of stage ${stage.name}: ${input.approveHint} --stage ${stage.name}`,
      ),
    };
  const settled = (m: Member) => m.state === "ready" && same(m.applied, target);
  const inFlight = atTarget.filter((m) => !settled(m)).length;
  const budget = budgetOf(stage.maxUnavailable, clusters.length) - inFlight;
  for (const m of candidates.slice(0, Math.max(0, budget))) moves.set(m.cluster, target);
  const allSettled = stage.members.every((m) => same(m.pinned, target) && settled(m));
  if (!allSettled) {
    const unreachable = stage.members.filter((m) => !m.clusterReady && !same(m.pinned, target));
    const waiting = unreachable.length
      ? `; waiting for ${unreachable.map((m) => m.cluster).join(", ")} (not Ready)`
      : "";
    const at = atTarget.length + candidates.slice(0, Math.max(0, budget)).length;
    return { status: status("Progressing", `${at}/${clusters.length} clusters moving to ${target}${waiting}`) };
  }
  const readySince = same(before?.revision, target) && before?.readySince ? before.readySince : input.now.toISOString();
  const bakeMs = parseDuration(stage.bakeTime ?? "0s");
  const left = Date.parse(readySince) + bakeMs - input.now.getTime();
  if (left > 0)
    return {
      status: status(
        "Baking",
        `all ${clusters.length} clusters Ready at ${target}; baking until ${new Date(input.now.getTime() + left).toISOString()}`,
        { readySince },
      ),
      recheckMs: left,
    };
  return {
    status: status("Complete", `all ${clusters.length} clusters Ready at ${target}`, {
      readySince,
      completedRevision: target,
    }),
  };
}

/** A cluster moved by the plan whose child failed to be built or applied: its stage halts, naming it. */
export function haltStage(plan: Plan, cluster: string, why: string): void {
  const stage = plan.status.stages.find((s) => s.clusters.includes(cluster));
  if (!stage) return;
  const at = plan.moves.get(cluster);
  const named = `${cluster}: ${why}`;
  stage.message =
    stage.phase === "Halted" ? `${stage.message}; ${named}` : `halted at ${at ?? stage.revision}: ${named}`;
  stage.phase = "Halted";
  plan.done = false;
}
