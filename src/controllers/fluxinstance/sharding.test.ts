import { describe, expect, it } from "vitest";
import { mapSharding, requirementsOf, type ShardDeployment, shardsSelected } from "./sharding.js";

const KEY = "sharding.fluxcd.io/key";
const deployment = (name: string, selector: string, available = 1): ShardDeployment => ({
  name,
  selector,
  available,
  replicas: 1,
});

describe("a FluxInstance's spec.sharding against the shard Deployments that run", () => {
  it("reads which shards a selector takes, in Flux's set form and the operator's equality form", () => {
    expect(requirementsOf("flotilla.dev/shard=a, sharding.fluxcd.io/key in (s1, s2)")).toEqual([
      "flotilla.dev/shard=a",
      "sharding.fluxcd.io/key in (s1, s2)",
    ]);
    expect(shardsSelected(`${KEY} in (s1, s2)`, KEY)).toEqual(["s1", "s2"]);
    expect(shardsSelected(`${KEY}=shard1`, KEY)).toEqual(["shard1"]);
    expect(shardsSelected(`${KEY}!=shard1`, KEY)).toEqual([]);
    expect(shardsSelected(`other in (shard1)`, KEY)).toEqual([]);
  });

  it("is in effect when this process excludes the key and every shard has a Deployment selecting it", () => {
    const m = mapSharding(
      { key: KEY, shards: ["shard1", "shard2"] },
      {
        watchLabelSelector: `!${KEY}`,
        shardDeployments: [
          deployment("flotilla-controller", `!${KEY}`),
          deployment("flotilla-controller-shard1", `${KEY} in (shard1)`),
          deployment("flux-shard2", `${KEY}=shard2`, 0),
        ],
      },
    );
    expect(m.missing).toBeUndefined();
    expect(m.statement).toBe(
      "sharding by sharding.fluxcd.io/key: in effect: this controller runs --watch-label-selector=!sharding.fluxcd.io/key; shard1 by Deployment flotilla-controller-shard1 (1/1 available); shard2 by Deployment flux-shard2 (0/1 available)",
    );
  });

  it("names the missing shard and a main controller that does not exclude the key, with the install to run", () => {
    const m = mapSharding(
      { key: "team", shards: ["a", "b"] },
      { watchLabelSelector: undefined, shardDeployments: [deployment("flotilla-controller-a", "team in (a)")] },
    );
    expect(m.missing).toBe(
      "sharding by team is not deployed as asked: this controller runs no selector, not !team; a by Deployment flotilla-controller-a (1/1 available); no Deployment selects b; deploy it with flotilla install --shards a,b --shard-key team",
    );
  });
});
