import { describe, expect, it } from "vitest";
import { gvkOf, SERVED_KINDS } from "../api/kinds.js";
import { initialReport } from "./fluxinstance/reporter.js";
import { selectorFor } from "./process-scope.js";

const KEY = "sharding.fluxcd.io/key";
const main = { watchLabelSelector: `!${KEY}` };
const shard = {
  watchLabelSelector: `${KEY} in (shard1)`,
  eventsForwardUrl: "http://notification-controller.flux-system.svc.cluster.local./",
};
const kind = (k: keyof typeof SERVED_KINDS) => gvkOf(SERVED_KINDS[k]);

describe("which process of a sharded install runs which kind (Flux shards only its source, kustomize and helm controllers)", () => {
  it("gives the FluxReport to the main process alone: initReport's report carries no labels and the main takes it unfiltered", () => {
    expect(initialReport("flux-system").metadata).toEqual({ name: "flux", namespace: "flux-system" });
    expect(selectorFor(kind("FluxReport"), main)).toBeUndefined();
    expect(selectorFor(kind("FluxReport"), shard)).toBeNull();
    expect(selectorFor(kind("FluxInstance"), shard)).toBeNull();
  });

  it("runs Alerts, Providers and Receivers in the main process only, whatever their shard key", () => {
    for (const k of ["Alert", "Provider", "Receiver"] as const) {
      expect(selectorFor(kind(k), main)).toBeUndefined();
      expect(selectorFor(kind(k), shard)).toBeNull();
    }
  });

  it("shards the source, Kustomization and HelmRelease controllers by the process's selector", () => {
    for (const k of ["GitRepository", "Kustomization", "HelmRelease"] as const) {
      expect(selectorFor(kind(k), main)).toBe(`!${KEY}`);
      expect(selectorFor(kind(k), shard)).toBe(`${KEY} in (shard1)`);
    }
  });

  it("keeps a process's other requirements for the unsharded kinds (a process kept to some objects)", () => {
    expect(selectorFor(kind("FluxReport"), { watchLabelSelector: `team=a,!${KEY}` })).toBe("team=a");
  });
});
