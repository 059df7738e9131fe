import { describe, expect, it } from "vitest";
import { fluxSummaries, shownUrl } from "./flux-page.js";

const ready = (status: string, reason: string) => ({
  conditions: [{ type: "Ready", status, reason, message: `${reason} message`, lastTransitionTime: "" }],
});

describe("the Flux instances on the fleet page", () => {
  it("pairs each namespace's FluxInstance with its FluxReport, failing first, the sync URL without credentials", () => {
    const objects: Record<string, unknown[]> = {
      FluxInstance: [
        {
          metadata: { name: "flux", namespace: "flux-system" },
          spec: {
            distribution: { version: "2.x", registry: "ghcr.io/fluxcd" },
            sync: {
              kind: "GitRepository",
              url: "https://user:pw@git.example/fleet.git",
              ref: "refs/heads/main",
              path: "clusters/prod",
            },
          },
          status: { ...ready("True", "ReconciliationSucceeded"), lastAppliedRevision: "v2.9.5@sha256:abc" },
        },
        { metadata: { name: "flux", namespace: "other" }, spec: {}, status: ready("False", "InvalidNamespace") },
      ],
      FluxReport: [
        {
          metadata: { name: "flux", namespace: "flux-system" },
          spec: {
            distribution: { status: "Installed", entitlement: "Unknown", version: "v2.9.5" },
            sync: { id: "kustomization/flux-system", ready: true, status: "Applied revision: main@sha1:1" },
          },
        },
      ],
    };
    const rows = fluxSummaries({ list: <T>(kind: string) => (objects[kind] ?? []) as T[] });
    expect(rows.map((r) => [r.namespace, r.ready])).toEqual([
      ["other", "False"],
      ["flux-system", "True"],
    ]);
    expect(rows[1]).toMatchObject({
      instance: true,
      sync: {
        kind: "GitRepository",
        url: "https://git.example/fleet.git",
        ref: "refs/heads/main",
        path: "clusters/prod",
      },
      distribution: "Installed v2.9.5",
      syncReady: true,
      revision: "v2.9.5@sha256:abc",
    });
    expect(JSON.stringify(rows)).not.toContain("pw");
  });

  it("never shows a user, password or query of a URL", () => {
    expect(shownUrl("oci://ghcr.io/org/manifests?token=t")).toBe("oci://ghcr.io/org/manifests");
    expect(shownUrl("ssh://git@host/org/repo")).toBe("ssh://host/org/repo");
    expect(shownUrl("git@host:org/repo")).toBe("git@host:org/repo");
  });
});
