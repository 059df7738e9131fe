import { describe, expect, it } from "vitest";
import { requirementsOf, unshardedSelector } from "./label-selector.js";

describe("the selector Alerts, Providers and Receivers are watched with", () => {
  it("drops the main process's !<key> (notification kinds are not sharded)", () => {
    expect(unshardedSelector("!sharding.fluxcd.io/key")).toBeUndefined();
    expect(unshardedSelector("flotilla.dev/shard=t1, !sharding.fluxcd.io/key")).toBe("flotilla.dev/shard=t1");
  });

  it("keeps every other requirement, set-based ones whole", () => {
    expect(unshardedSelector("team in (a, b),tier=web")).toBe("team in (a, b),tier=web");
    expect(unshardedSelector(undefined)).toBeUndefined();
    expect(requirementsOf("a in (x,y), !b")).toEqual(["a in (x,y)", "!b"]);
  });
});
