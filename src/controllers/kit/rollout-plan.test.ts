import { describe, expect, it } from "vitest";
import type { RolloutStatus } from "../../api/fleet/rollout.js";
import { budgetOf, haltStage, type Member, planRollout, type PlanInput } from "./rollout-plan.js";

const R0 = "main@sha1:0000000000";
const R1 = "main@sha1:1111111111";
const now = new Date("2026-11-25T12:00:00Z");
const ready = (cluster: string, rev: string): Member => ({
  cluster,
  clusterReady: true,
  pinned: rev,
  applied: rev,
  state: "ready",
});
const input = (stages: PlanInput["stages"], previous?: RolloutStatus, extra: Partial<PlanInput> = {}): PlanInput => ({
  stages,
  live: R1,
  previous,
  now,
  approveHint: "flotilla approve fleetkustomization apps -n fleet",
  ...extra,
});

describe("planRollout", () => {
  it("gives the first stage the source's revision and holds the later stages at what the first completed", () => {
    const plan = planRollout(
      input(
        [
          { name: "canary", members: [ready("a", R0)] },
          { name: "prod", members: [ready("b", R0), ready("c", R0)] },
        ],
        { stages: [{ name: "canary", phase: "Complete", completedRevision: R0, clusters: ["a"] }] },
      ),
    );
    expect([...plan.moves]).toEqual([["a", R1]]);
    expect(plan.status.stages.map((s) => [s.name, s.phase, s.revision])).toEqual([
      ["canary", "Progressing", R1],
      ["prod", "Complete", R0],
    ]);
    expect(plan.done).toBe(false);
  });

  it("bakes a stage that is Ready at the revision before the next stage receives it", () => {
    const stages = [
      { name: "canary", bakeTime: "10m", members: [ready("a", R1)] },
      { name: "prod", members: [ready("b", R0)] },
    ];
    const first = planRollout(input(stages));
    expect(first.status.stages[0]).toMatchObject({ phase: "Baking", readySince: now.toISOString() });
    expect(first.recheckMs).toBe(600_000);
    expect(first.moves.size).toBe(0);
    const later = planRollout(input(stages, first.status, { now: new Date(now.getTime() + 600_000) }));
    expect(later.status.stages[0]).toMatchObject({ phase: "Complete", completedRevision: R1 });
    expect([...later.moves]).toEqual([["b", R1]]);
  });

  it("halts on a cluster failing at the stage's revision, naming it, and moves nothing after it", () => {
    const plan = planRollout(
      input(
        [
          { name: "canary", members: [{ ...ready("a", R1), state: "failing", message: "health check failed" }] },
          { name: "prod", members: [ready("b", R0)] },
        ],
        { stages: [{ name: "canary", phase: "Complete", completedRevision: R0, clusters: ["a"] }] },
      ),
    );
    expect(plan.status.stages[0]).toMatchObject({
      phase: "Halted",
      message: `halted at ${R1}: a: health check failed`,
    });
    expect(plan.status.stages[1]).toMatchObject({ phase: "Complete", revision: R0 });
    expect(plan.moves.size).toBe(0);
  });

  it("waits at a Manual stage until the annotation approves that stage at that revision", () => {
    const stages = [
      { name: "canary", members: [ready("a", R1)] },
      { name: "prod", approval: "Manual" as const, members: [ready("b", R0)] },
    ];
    const waiting = planRollout(input(stages));
    expect(waiting.status.stages[1]).toMatchObject({ phase: "WaitingForApproval", revision: R1 });
    expect(waiting.status.stages[1]!.message).toContain(
      "flotilla approve fleetkustomization apps -n fleet --stage prod",
    );
    expect(waiting.moves.size).toBe(0);
    expect(planRollout(input(stages, undefined, { approved: `prod@${R0}` })).moves.size).toBe(0);
    expect([...planRollout(input(stages, undefined, { approved: `prod@${R1}` })).moves]).toEqual([["b", R1]]);
  });

  it("moves at most maxUnavailable clusters of a stage at once, and skips clusters that are not Ready", () => {
    const members = [ready("a", R0), ready("b", R0), { ...ready("c", R0), clusterReady: false }, ready("d", R0)];
    const plan = planRollout(input([{ name: "all", maxUnavailable: 2, members }]));
    expect([...plan.moves]).toEqual([
      ["a", R1],
      ["b", R1],
    ]);
    const next = planRollout(
      input([
        {
          name: "all",
          maxUnavailable: 2,
          members: [{ ...ready("a", R1), state: "progressing" }, ready("b", R1), members[2]!, members[3]!],
        },
      ]),
    );
    expect([...next.moves]).toEqual([["d", R1]]);
    expect(next.status.stages[0]!.message).toContain("waiting for c (not Ready)");
  });

  it("passes a stage with no clusters and reports done when every stage completed the source's revision", () => {
    const plan = planRollout(
      input([
        { name: "empty", members: [] },
        { name: "all", members: [ready("a", R1)] },
      ]),
    );
    expect(plan.status.stages.map((s) => s.phase)).toEqual(["Complete", "Complete"]);
    expect(plan.done).toBe(true);
  });

  it("keeps every stage where it is while the source has no revision", () => {
    const plan = planRollout(input([{ name: "all", members: [ready("a", R0)] }], undefined, { live: undefined }));
    expect(plan.moves.size).toBe(0);
    expect(plan.status.stages[0]!.phase).toBe("Waiting");
  });
});

describe("planRollout after a halt or with approvals", () => {
  it("moves nothing after a halted stage, even to what that stage completed before", () => {
    const plan = planRollout(
      input(
        [
          { name: "canary", members: [{ ...ready("a", R1), state: "failing", message: "unhealthy" }] },
          { name: "prod", members: [ready("b", R0)] },
        ],
        { stages: [{ name: "canary", phase: "Complete", completedRevision: R1, clusters: ["a"] }] },
      ),
    );
    expect(plan.status.stages[0]!.phase).toBe("Halted");
    expect(plan.moves.size).toBe(0);
    expect(plan.done).toBe(false);
  });

  it("keeps a stage's approval for its revision once seen, and never opens the gate because one member is there", () => {
    const stages = () => [
      { name: "canary", members: [ready("a", R1)] },
      { name: "prod", approval: "Manual" as const, members: [ready("c1", R1), ready("p1", R0)] },
    ];
    expect(planRollout(input(stages())).status.stages[1]!.phase).toBe("WaitingForApproval");
    const approved = planRollout(input(stages(), undefined, { approved: `prod@${R1}` }));
    expect([...approved.moves]).toEqual([["p1", R1]]);
    expect(approved.status.stages[1]!.approvedRevision).toBe(R1);
    // The annotation has moved on to another stage: the recorded approval still lets prod finish.
    const later = planRollout(input(stages(), approved.status, { approved: `other@${R1}` }));
    expect([...later.moves]).toEqual([["p1", R1]]);
  });
});

describe("haltStage", () => {
  it("halts the stage of a moved cluster whose child could not be built, naming it and why", () => {
    const plan = planRollout(input([{ name: "canary", members: [ready("a", R0)] }]));
    haltStage(plan, "a", "spec.template.spec.path uses ${region}, which this cluster does not define");
    expect(plan.status.stages[0]).toMatchObject({
      phase: "Halted",
      message: `halted at ${R1}: a: spec.template.spec.path uses \${region}, which this cluster does not define`,
    });
    expect(plan.done).toBe(false);
  });
});

describe("planRollout when a rollout is added to a running fan-out", () => {
  it("holds every unpinned child at the revision it runs, then moves the first stage on", () => {
    const unpinned = (cluster: string): Member => ({ ...ready(cluster, R0), pinned: undefined });
    const plan = planRollout(
      input([
        { name: "canary", members: [unpinned("a")] },
        { name: "prod", approval: "Manual", members: [unpinned("b")] },
      ]),
    );
    expect([...plan.moves]).toEqual([
      ["a", R1],
      ["b", R0],
    ]);
    expect(plan.status.stages[1]).toMatchObject({ phase: "Waiting" });
  });
});

describe("budgetOf", () => {
  it("reads counts and percentages, never below one, and refuses anything else", () => {
    expect(budgetOf(undefined, 7)).toBe(7);
    expect(budgetOf(2, 7)).toBe(2);
    expect(budgetOf("25%", 7)).toBe(1);
    expect(budgetOf("50%", 8)).toBe(4);
    expect(budgetOf("3", 8)).toBe(3);
    expect(() => budgetOf("lots", 8)).toThrow(/neither a count nor a percentage/);
    expect(() => budgetOf(0, 8)).toThrow(/would never move a cluster/);
    expect(() => budgetOf("0%", 8)).toThrow(/would never move a cluster/);
  });
});
