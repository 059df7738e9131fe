import { describe, expect, it } from "vitest";
import type { KubeObject } from "../api/meta/object.js";
import { installManifests } from "./manifests.js";
import { shardingProblem, shardNames, withShards } from "./shards.js";

const base = installManifests({ namespace: "flux-system", image: "x", version: "1", podDisruptionBudget: true });
const sharded = withShards(base, { key: "sharding.fluxcd.io/key", shards: ["shard1", "shard2"] });

type Deployment = {
  metadata: KubeObject["metadata"];
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: { containers: { args: string[] }[] } };
  };
};
const find = (kind: string, name: string) =>
  sharded.find((o) => o.kind === kind && o.metadata.name === name) as unknown as Deployment;
const args = (name: string) => find("Deployment", name).spec.template.spec.containers[0]!.args;

describe("flotilla install --shards (Flux's sharding)", () => {
  it("restricts the main controller to objects without the shard key", () => {
    expect(args("flotilla-controller")).toContain("--watch-label-selector=!sharding.fluxcd.io/key");
    expect(args("flotilla-controller").filter((a) => a.startsWith("--watch-label-selector"))).toHaveLength(1);
  });

  it("adds one Deployment per shard with its own selector, pod label, artifact Service and role annotation", () => {
    const d = find("Deployment", "flotilla-controller-shard2");
    expect(d.metadata.annotations).toEqual({ "sharding.fluxcd.io/role": "shard" });
    expect(d.spec.selector.matchLabels).toEqual({ app: "flotilla-controller-shard2" });
    expect(d.spec.template.metadata.labels.app).toBe("flotilla-controller-shard2");
    expect(args("flotilla-controller-shard2")).toEqual(
      expect.arrayContaining([
        "--watch-label-selector=sharding.fluxcd.io/key in (shard2)",
        "--storage-adv-addr=http://flotilla-artifacts-shard2.flux-system.svc.cluster.local.",
        "--kamaji-discovery=false",
      ]),
    );
    const service = find("Service", "flotilla-artifacts-shard2") as unknown as { spec: { selector: unknown } };
    expect(service.spec.selector).toEqual({ app: "flotilla-controller-shard2" });
    const budget = find("PodDisruptionBudget", "flotilla-controller-shard2") as unknown as { spec: unknown };
    expect(budget.spec).toEqual({ minAvailable: 1, selector: { matchLabels: { app: "flotilla-controller-shard2" } } });
  });

  it("keeps the webhook receiver and event Services on the main controller only", () => {
    for (const name of ["webhook-receiver", "notification-controller"])
      expect((find("Service", name) as unknown as { spec: { selector: unknown } }).spec.selector).toEqual({
        app: "flotilla-controller",
      });
    expect(sharded.filter((o) => o.kind === "Deployment").map((o) => o.metadata.name)).toEqual([
      "flotilla-controller",
      "flotilla-controller-shard1",
      "flotilla-controller-shard2",
    ]);
  });

  it("points each shard's events at the main controller's event endpoint, as Flux's shard controllers post them", () => {
    expect(args("flotilla-controller")).toContain("--events-addr=:9091");
    const shardEvents = args("flotilla-controller-shard1").filter((a) => a.startsWith("--events-addr"));
    expect(shardEvents).toEqual(["--events-addr=http://notification-controller.flux-system.svc.cluster.local./"]);
  });

  it("leaves the manifests untouched without shards and does not change its input", () => {
    expect(withShards(base, { key: "k", shards: [] })).toBe(base);
    expect(JSON.stringify(base)).not.toContain("watch-label-selector");
  });

  it("names shards from a count as Flux's documentation does, or from a list", () => {
    expect(shardNames("3")).toEqual(["shard1", "shard2", "shard3"]);
    expect(shardNames("blue, green")).toEqual(["blue", "green"]);
  });

  it("refuses names that cannot be a label value and a Deployment name, and repeated names", () => {
    expect(shardingProblem({ key: "sharding.fluxcd.io/key", shards: ["Shard_1"] })).toMatch(/shard name "Shard_1"/);
    expect(shardingProblem({ key: "sharding.fluxcd.io/key", shards: ["a", "a"] })).toBe('shard "a" is named twice');
    expect(shardingProblem({ key: "bad key", shards: ["a"] })).toBe('shard key "bad key" is not a label key');
    expect(shardingProblem({ key: "sharding.fluxcd.io/key", shards: ["shard1"] })).toBeUndefined();
  });
});
