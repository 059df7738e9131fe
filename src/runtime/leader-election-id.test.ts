import { describe, expect, it } from "vitest";
import { leaderElectionId } from "./leader-election.js";

describe("the leader election Lease's name", () => {
  it("is flotilla-controller-leader-election without a selector", () => {
    expect(leaderElectionId()).toBe("flotilla-controller-leader-election");
    expect(leaderElectionId("")).toBe("flotilla-controller-leader-election");
  });

  it("carries the selector's hash for a shard, as Flux's GenerateID (first 8 hex of its SHA-256)", () => {
    // `printf '%s' 'sharding.fluxcd.io/key in (shard1)' | sha256sum` starts 7ee98f29.
    expect(leaderElectionId("sharding.fluxcd.io/key in (shard1)")).toBe("flotilla-controller-leader-election-7ee98f29");
  });
});
