import { describe, expect, it } from "vitest";
import type { StageStatus } from "../../api/fleet/rollout.js";
import type { Row } from "../children/children.js";
import { clusterEvents, fleetEvents, rolloutEvents } from "./fleet-events.js";

const R1 = "main@sha1:1111111111111111111111111111111111111111";
const R2 = "main@sha1:2222222222222222222222222222222222222222";
const row = (cluster: string, state: Row["state"], more: Partial<Row> = {}): Row => ({
  cluster,
  child: `app-${cluster}`,
  ready: state === "ready" ? "True" : state === "failing" ? "False" : "Unknown",
  state,
  ...more,
});
const stage = (name: string, phase: StageStatus["phase"], more: Partial<StageStatus> = {}): StageStatus => ({
  name,
  phase,
  clusters: ["a", "b"],
  ...more,
});

describe("the fleet's per-cluster events", () => {
  it("a child Ready for the first time is a Normal event naming the cluster and revision in the metadata", () => {
    const [e, ...rest] = clusterEvents(undefined, [row("a", "ready", { revision: R1, message: "Applied" })]);
    expect(rest).toEqual([]);
    expect(e).toEqual({
      type: "Normal",
      reason: "ClusterReconciled",
      message: `cluster a: app-a Ready at ${R1}`,
      annotations: { "fleet.flotilla.dev/cluster": "a", "fleet.flotilla.dev/revision": R1 },
    });
  });

  it("says nothing for a cluster whose child is as it was (an idle fleet is quiet)", () => {
    const now = [row("a", "ready", { revision: R1 }), row("b", "failing", { message: "boom" })];
    const before = now.map(({ state: _s, ...r }) => r);
    expect(clusterEvents(before, now)).toEqual([]);
  });

  it("a new revision Ready, a child newly failing or failing differently are events; waiting clusters are not", () => {
    const before = [
      { cluster: "a", child: "app-a", ready: "True" as const, revision: R1 },
      { cluster: "b", child: "app-b", ready: "True" as const, revision: R1 },
      { cluster: "c", child: "app-c", ready: "False" as const, message: "old error" },
    ];
    const events = clusterEvents(before, [
      row("a", "ready", { revision: R2 }),
      row("b", "failing", { revision: R1, message: "health check failed" }),
      row("c", "failing", { message: "new error" }),
      row("d", "waiting", { message: "cluster not Ready: refused" }),
    ]);
    expect(events.map((e) => [e.type, e.reason, e.annotations["fleet.flotilla.dev/cluster"]])).toEqual([
      ["Normal", "ClusterReconciled", "a"],
      ["Warning", "ClusterReconciliationFailed", "b"],
      ["Warning", "ClusterReconciliationFailed", "c"],
    ]);
    expect(events[1]!.message).toBe("cluster b: app-b: health check failed");
  });
});

describe("the fleet's rollout stage events", () => {
  it("a stage starting a revision, then completing it, each once", () => {
    const started = rolloutEvents(
      { stages: [stage("canary", "Waiting")] },
      { stages: [stage("canary", "Progressing", { revision: R1 })] },
    );
    expect(started).toEqual([
      {
        type: "Normal",
        reason: "RolloutStageStarted",
        message: `stage canary started revision ${R1} on a, b`,
        annotations: { "fleet.flotilla.dev/stage": "canary", "fleet.flotilla.dev/revision": R1 },
      },
    ]);
    // Baking after Progressing at the same revision is no new start.
    expect(
      rolloutEvents(
        { stages: [stage("canary", "Progressing", { revision: R1 })] },
        { stages: [stage("canary", "Baking", { revision: R1 })] },
      ),
    ).toEqual([]);
    const completed = rolloutEvents(
      { stages: [stage("canary", "Baking", { revision: R1 })] },
      { stages: [stage("canary", "Complete", { revision: R1, completedRevision: R1 })] },
    );
    expect(completed.map((e) => [e.reason, e.message])).toEqual([
      ["RolloutStageCompleted", `stage canary completed revision ${R1} on a, b`],
    ]);
  });

  it("a gate reached, then approved; a stage halting is a Warning naming why", () => {
    const gate = rolloutEvents(undefined, {
      stages: [stage("prod", "WaitingForApproval", { revision: R1, message: "revision waits for approval" })],
    });
    expect(gate.map((e) => e.reason)).toEqual(["RolloutStageWaitingForApproval"]);
    const approved = rolloutEvents(
      { stages: [stage("prod", "WaitingForApproval", { revision: R1 })] },
      { stages: [stage("prod", "Progressing", { revision: R1, approvedRevision: R1 })] },
    );
    expect(approved.map((e) => e.reason)).toEqual(["RolloutStageApproved", "RolloutStageStarted"]);
    const halted = rolloutEvents(
      { stages: [stage("prod", "Progressing", { revision: R2 })] },
      { stages: [stage("prod", "Halted", { revision: R2, message: `halted at ${R2}: b: boom` })] },
    );
    expect(halted).toEqual([
      {
        type: "Warning",
        reason: "RolloutStageHalted",
        message: `stage prod halted at ${R2}: b: boom`,
        annotations: { "fleet.flotilla.dev/stage": "prod", "fleet.flotilla.dev/revision": R2 },
      },
    ]);
  });

  it("puts the rollout's events before the clusters' in one reconcile's news", () => {
    const events = fleetEvents(undefined, [row("a", "ready", { revision: R1 })], {
      stages: [stage("canary", "Progressing", { revision: R1 })],
    });
    expect(events.map((e) => e.reason)).toEqual(["RolloutStageStarted", "ClusterReconciled"]);
  });
});
