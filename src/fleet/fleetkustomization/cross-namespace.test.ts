import { describe, expect, it } from "vitest";
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import { fleetKustomizationKind } from "./kind.js";
import { crossNamespaceRead } from "../fanout/cross-namespace.js";

const fk = (sourceRef: { name: string; namespace?: string }, fallbackPath?: string) =>
  ({
    metadata: { name: "apps", namespace: "team-a" },
    spec: {
      clusterSelector: {},
      ...(fallbackPath ? { fallbackPath } : {}),
      template: {
        spec: { interval: "1m", path: "./${cluster_name}", sourceRef: { kind: "GitRepository", ...sourceRef } },
      },
    },
  }) as unknown as FleetKustomization;

describe("a fleet parent's own read of another namespace's source", () => {
  it("is refused under --no-cross-namespace-refs as a Kustomization's sourceRef is (Stalled, AccessDenied)", () => {
    const denied = crossNamespaceRead(
      fleetKustomizationKind,
      fk({ name: "repo", namespace: "team-b" }, "./base"),
      true,
    );
    expect(denied?.reason).toBe("AccessDenied");
    expect(denied?.stalled).toBe(true);
    expect(denied?.message).toBe(
      "can't access 'GitRepository/team-b/repo', cross-namespace references have been blocked",
    );
  });

  it("is allowed without the flag, for the parent's own namespace, and when no fallback path makes it read", () => {
    expect(crossNamespaceRead(fleetKustomizationKind, fk({ name: "repo", namespace: "team-b" }, "./base"), false)).toBe(
      undefined,
    );
    expect(crossNamespaceRead(fleetKustomizationKind, fk({ name: "repo" }, "./base"), true)).toBe(undefined);
    expect(crossNamespaceRead(fleetKustomizationKind, fk({ name: "repo", namespace: "team-a" }, "./base"), true)).toBe(
      undefined,
    );
    // Its children are refused by the Kustomization controller themselves; the parent reads nothing.
    expect(crossNamespaceRead(fleetKustomizationKind, fk({ name: "repo", namespace: "team-b" }), true)).toBe(undefined);
  });
});
