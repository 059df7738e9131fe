// The rollout's view of the fleet: every selected cluster placed in the first stage whose selector
// chooses it (the clusters no stage chooses form a last stage, "unstaged"), with the revision its child
// is pinned to and how that child is doing.
import type { FleetCluster } from "../../api/fleet/cluster.js";
import { type Rollout, UNSTAGED } from "../../api/fleet/rollout.js";
import { isReady, selects } from "../clusters.js";
import type { ChildKind, FleetChild, FleetParent } from "../children/child-kind.js";
import { childStatus } from "../children/children.js";
import { FleetError } from "../errors.js";
import { budgetOf, type PlanInput } from "./plan.js";

/** The annotation on a child naming the revision its stage has given it. */
export const REVISION_ANNOTATION = "fleet.flotilla.dev/revision";

export class InvalidRollout extends FleetError {
  override name = "InvalidRollout";
}

/** Stage names unique (and not the reserved last one), maxUnavailable readable: else the spec is refused. */
export function checkRollout(rollout: Rollout): void {
  const seen = new Set<string>();
  for (const [i, s] of rollout.stages.entries()) {
    const at = `spec.rollout.stages[${i}]`;
    if (s.name === UNSTAGED)
      throw new InvalidRollout(`${at}.name "${UNSTAGED}" is reserved for the clusters no stage selects: rename it`);
    if (seen.has(s.name)) throw new InvalidRollout(`${at}.name "${s.name}" is used by an earlier stage`);
    seen.add(s.name);
    try {
      budgetOf(s.maxUnavailable, 1);
    } catch (err) {
      throw new InvalidRollout(`${at}.maxUnavailable: ${(err as Error).message}`);
    }
  }
  if (!rollout.stages.length) throw new InvalidRollout("spec.rollout.stages is empty: name at least one stage");
}

export function stagedMembers<P extends FleetParent>(
  kind: ChildKind<P>,
  rollout: Rollout,
  clusters: FleetCluster[],
  children: Map<string, FleetChild>,
): PlanInput["stages"] {
  const stages: PlanInput["stages"] = rollout.stages.map((s) => ({ ...s, members: [] }));
  const unstaged: PlanInput["stages"][number] = { name: UNSTAGED, members: [] };
  for (const c of clusters) {
    const name = c.metadata.name;
    const stage = stages.find((s) => selects(s.clusterSelector ?? {}, c)) ?? unstaged;
    const child = children.get(name);
    const row = child && childStatus(kind, name, child.metadata.name, child);
    const pinned = child?.metadata.annotations?.[REVISION_ANNOTATION];
    const applied = child && kind.revisionOf(child);
    stage.members.push({
      cluster: name,
      clusterReady: isReady(c),
      ...(pinned ? { pinned } : {}),
      ...(row ? { state: row.state, ...(row.message ? { message: row.message } : {}) } : {}),
      ...(applied ? { applied } : {}),
    });
  }
  return unstaged.members.length ? [...stages, unstaged] : stages;
}
