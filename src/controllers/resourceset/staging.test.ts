import { describe, expect, it } from "vitest";
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { Rollout } from "../../api/fleet/rollout.js";
import type { ClusterInventory, ResourceSet } from "../../api/operator/resourceset.js";
import { removalOf, ROLLOUT_ANNOTATION, rolloutOf } from "./fleet-annotations.js";
import { stageTargets, type StagingInput } from "./staging.js";

const OLD = "sha256:0000";
const NEW = "sha256:1111";
const NEWER = "sha256:2222";
const now = new Date("2026-11-28T06:00:00Z");
const cluster = (name: string, stage: string): FleetCluster => ({
  apiVersion: "fleet.flotilla.dev/v1alpha1",
  kind: "Cluster",
  metadata: { name, namespace: "fleet", labels: { stage } },
  spec: { kubeConfig: { secretRef: { name: `${name}-kubeconfig` } } },
});
const at = (c: string, revision: string, failure?: string): ClusterInventory => ({
  cluster: c,
  inventory: { entries: [] },
  revision,
  ...(failure ? { failure } : {}),
});
const rollout: Rollout = {
  stages: [
    { name: "canary", clusterSelector: { matchLabels: { stage: "canary" } } },
    { name: "prod", clusterSelector: { matchLabels: { stage: "prod" } }, approval: "Manual" },
  ],
};
const input = (entries: ClusterInventory[], extra: Partial<StagingInput> = {}): StagingInput => ({
  rollout,
  clusters: [cluster("t1", "canary"), cluster("t2", "prod")],
  entries,
  live: NEW,
  approveHint: "flotilla approve resourceset apps -n fleet",
  now,
  ...extra,
});

describe("ResourceSet staged rollouts (decision 0053)", () => {
  it("gives a new render to the first stage only; the later stage holds what it has", () => {
    const { apply, plan } = stageTargets(input([at("t1", OLD), at("t2", OLD)]));
    expect([...apply]).toEqual(["t1"]);
    expect(plan.status.stages.map((s) => [s.name, s.phase, s.revision])).toEqual([
      ["canary", "Progressing", NEW],
      ["prod", "Waiting", undefined],
    ]);
  });

  it("waits for approval of a Manual stage once the stage before it completed the render, then moves it", () => {
    const first = stageTargets(input([at("t1", NEW), at("t2", OLD)]));
    expect([...first.apply]).toEqual(["t1"]);
    expect(first.plan.status.stages[1]).toMatchObject({
      phase: "WaitingForApproval",
      message: `revision ${NEW} waits for approval of stage prod: flotilla approve resourceset apps -n fleet --stage prod`,
    });
    const approved = stageTargets(
      input([at("t1", NEW), at("t2", OLD)], { previous: first.plan.status, approved: `prod@${NEW}` }),
    );
    expect([...approved.apply].sort()).toEqual(["t1", "t2"]);
  });

  it("holds a later stage when the render its stage before completed has been superseded", () => {
    const previous = {
      stages: [{ name: "canary", phase: "Complete" as const, completedRevision: NEW, clusters: ["t1"] }],
    };
    const { apply, plan } = stageTargets(input([at("t1", NEW), at("t2", OLD)], { live: NEWER, previous }));
    expect([...apply]).toEqual(["t1"]);
    expect([...plan.moves]).toEqual([["t1", NEWER]]);
    expect(plan.status.stages[1]).toMatchObject({ phase: "Waiting", revision: NEW });
    expect(plan.status.stages[1]!.message).toContain(`superseded by ${NEWER}`);
  });

  it("halts the stage of a Cluster the render failed on, and retries it there", () => {
    const { apply, plan } = stageTargets(input([at("t1", NEW, "forbidden"), at("t2", OLD)]));
    expect([...apply]).toEqual(["t1"]);
    expect(plan.status.stages[0]).toMatchObject({ phase: "Halted", message: `halted at ${NEW}: t1: forbidden` });
  });

  it("puts Clusters no stage selects in the last stage, unstaged", () => {
    const { plan } = stageTargets(input([], { clusters: [cluster("t1", "canary"), cluster("t3", "dev")] }));
    expect(plan.status.stages.map((s) => [s.name, s.clusters])).toEqual([
      ["canary", ["t1"]],
      ["prod", []],
      ["unstaged", ["t3"]],
    ]);
  });
});

const rset = (annotations: Record<string, string>) =>
  ({ metadata: { name: "apps", namespace: "fleet", annotations }, spec: {} }) as unknown as ResourceSet;

describe("the ResourceSet's fleet annotations (decision 0053)", () => {
  it("reads the rollout as YAML and refuses an unknown stage field by name", () => {
    const yaml = "stages:\n- name: canary\n  clusterSelector: {matchLabels: {stage: canary}}\n  bakeTime: 1m\n";
    expect(rolloutOf(rset({ [ROLLOUT_ANNOTATION]: yaml }))?.stages[0]).toMatchObject({
      name: "canary",
      bakeTime: "1m",
    });
    expect(() => rolloutOf(rset({ [ROLLOUT_ANNOTATION]: '{"stages":[{"name":"a","bake":"1m"}]}' }))).toThrow(
      "the annotation fleet.flotilla.dev/rollout on ResourceSet/fleet/apps is refused: stages[0].bake is not a stage field (name, clusterSelector, maxUnavailable, bakeTime, approval)",
    );
    expect(() => rolloutOf(rset({ [ROLLOUT_ANNOTATION]: '{"stages":[{"name":"a"},{"name":"a"}]}' }))).toThrow(
      'stages[1].name "a" is used by an earlier stage',
    );
    expect(() => rolloutOf(rset({ [ROLLOUT_ANNOTATION]: "stages: []" }))).toThrow("at least one stage");
  });

  it("defaults to Orphan after the controller's grace period, as the fleet kinds do", () => {
    expect(removalOf(rset({}))).toEqual({ policy: "Orphan", graceMs: 600_000 });
    expect(removalOf(rset({}), 5_000)).toEqual({ policy: "Orphan", graceMs: 5_000 });
    const set = {
      "fleet.flotilla.dev/on-cluster-removal": "Prune",
      "fleet.flotilla.dev/cluster-removal-grace-period": "30s",
    };
    expect(removalOf(rset(set))).toEqual({ policy: "Prune", graceMs: 30_000 });
    expect(() => removalOf(rset({ "fleet.flotilla.dev/on-cluster-removal": "Delete" }))).toThrow(
      'the annotation fleet.flotilla.dev/on-cluster-removal on ResourceSet/fleet/apps is "Delete": use Orphan (the default) or Prune',
    );
  });
});
