import { describe, expect, it } from "vitest";
import type { FleetCluster } from "../../api/fleet/cluster.js";
import { invalidRollout } from "./outcome.js";

const cluster = (name: string) => ({ metadata: { name, namespace: "fleet" } }) as FleetCluster;

describe("an invalid rollout", () => {
  it("stalls, and names the children it keeps for clusters no longer selected", () => {
    const f = invalidRollout(new Error('stage "canary" selects no cluster'), ["a", "b", "c"], [cluster("a")]);
    expect(f.reason).toBe("InvalidRollout");
    expect(f.message).toBe(
      'stage "canary" selects no cluster (the children of b, c, no longer selected, stay until it is fixed)',
    );
  });

  it("says nothing more when every child's cluster is still selected", () => {
    expect(invalidRollout(new Error("bad"), ["a"], [cluster("a")]).message).toBe("bad");
  });
});
