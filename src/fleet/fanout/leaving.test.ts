import { describe, expect, it } from "vitest";
import type { FleetParent } from "../children/child-kind.js";
import { controlledBy } from "./collision.js";
import { gracePeriodMs, removalCondition, removalPolicy } from "./leaving.js";

const parent = (spec: Partial<FleetParent["spec"]> = {}): FleetParent => ({
  apiVersion: "fleet.flotilla.dev/v1alpha1",
  kind: "FleetKustomization",
  metadata: { name: "app", namespace: "fleet", uid: "u-1" },
  spec: { clusterSelector: {}, template: { spec: {} }, ...spec },
});

describe("a cluster leaving a fleet object", () => {
  it("is orphaned unless Prune is asked for, after the object's grace period or the controller's", () => {
    expect(removalPolicy(parent())).toBe("Orphan");
    expect(removalPolicy(parent({ onClusterRemoval: "Prune" }))).toBe("Prune");
    expect(gracePeriodMs(parent())).toBe(600_000);
    expect(gracePeriodMs(parent(), 5_000)).toBe(5_000);
    expect(gracePeriodMs(parent({ clusterRemovalGracePeriod: "1m30s" }), 5_000)).toBe(90_000);
    expect(gracePeriodMs(parent({ clusterRemovalGracePeriod: "0s" }))).toBe(0);
  });

  it("is named in ClusterRemovalPending with when it is released and what happens then; cleared when none is left", () => {
    const leaving = [
      { cluster: "a", child: "app-a", why: "was deleted", releaseAt: new Date("2030-01-01T00:10:00.123Z") },
      {
        cluster: "b",
        child: "app-b",
        why: "no longer matches spec.clusterSelector",
        releaseAt: new Date(0),
        blockers: ["web-b"],
      },
    ];
    const [c] = removalCondition([], leaving, "Orphan", 3);
    expect(c).toMatchObject({
      type: "ClusterRemovalPending",
      status: "True",
      reason: "GracePeriod",
      observedGeneration: 3,
    });
    expect(c!.message).toBe(
      "cluster a was deleted: child app-a kept until 2030-01-01T00:10:00Z; " +
        "cluster b no longer matches spec.clusterSelector: child app-b kept until its dependents there are gone (web-b); " +
        "then each is deleted and what it applied is left running there (onClusterRemoval: Orphan)",
    );
    expect(removalCondition([c!], [], "Orphan", 4)).toEqual([]);
    expect(removalCondition([], leaving.slice(0, 1), "Prune", 1)[0]!.message).toContain("(onClusterRemoval: Prune)");
  });

  it("counts as a child only when the parent controls it (its uid), whatever its labels say", () => {
    const ref = { apiVersion: "x", kind: "FleetKustomization", name: "app" };
    const obj = (refs?: object[]) => ({
      apiVersion: "v1",
      kind: "K",
      metadata: { name: "app-a", ownerReferences: refs },
    });
    expect(controlledBy(parent(), obj([{ ...ref, uid: "u-1", controller: true }]) as never)).toBe(true);
    expect(controlledBy(parent(), obj([{ ...ref, uid: "u-2", controller: true }]) as never)).toBe(false);
    expect(controlledBy(parent(), obj([{ ...ref, uid: "u-1" }]) as never)).toBe(false);
    expect(controlledBy(parent(), obj() as never)).toBe(false);
  });
});
