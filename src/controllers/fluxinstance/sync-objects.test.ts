import { describe, expect, it } from "vitest";
import type { FluxInstance } from "../../api/operator/fluxinstance.js";
import { goDurationString, syncName, syncObjects } from "./sync-objects.js";

const instance = (sync: Record<string, unknown>, ns = "flux-system"): FluxInstance => ({
  apiVersion: "fluxcd.controlplane.io/v1",
  kind: "FluxInstance",
  metadata: { name: "flux", namespace: ns },
  spec: { distribution: { version: "2.x", registry: "ghcr.io/fluxcd" }, sync: sync as never },
});

describe("FluxInstance spec.sync objects (the operator's syncTmpl)", () => {
  it("names the GitRepository and Kustomization after the namespace, with the operator's spec and labels", () => {
    const fi = instance({
      kind: "GitRepository",
      url: "https://git/x.git",
      ref: "refs/heads/main",
      path: "clusters/prod",
      interval: "1m",
      pullSecret: "auth",
    });
    const [src, ks] = syncObjects(fi);
    expect(syncName(fi)).toBe("flux-system");
    expect(src).toMatchObject({
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: {
        name: "flux-system",
        namespace: "flux-system",
        labels: {
          "app.kubernetes.io/managed-by": "flux-operator",
          "app.kubernetes.io/part-of": "flux",
          "app.kubernetes.io/instance": "flux-system",
        },
        annotations: { "kustomize.toolkit.fluxcd.io/ssa": "Ignore", "kustomize.toolkit.fluxcd.io/prune": "Disabled" },
      },
      spec: {
        interval: "1m0s",
        ref: { name: "refs/heads/main" },
        secretRef: { name: "auth" },
        url: "https://git/x.git",
      },
    });
    expect(ks!.spec).toEqual({
      interval: "10m0s",
      path: "clusters/prod",
      prune: true,
      sourceRef: { kind: "GitRepository", name: "flux-system" },
    });
  });

  it("uses sync.name when given, a tag ref for an OCIRepository, and the multitenant profile's service account", () => {
    const fi = instance(
      { kind: "OCIRepository", name: "root", url: "oci://r/x", ref: "latest", path: "./", provider: "generic" },
      "ops",
    );
    const [src, ks] = syncObjects(fi, { tenantServiceAccount: "flotilla-controller" });
    expect(src!.metadata.name).toBe("root");
    expect(src!.spec).toMatchObject({ ref: { tag: "latest" }, provider: "generic" });
    expect(ks!.spec).toMatchObject({
      sourceRef: { kind: "OCIRepository", name: "root" },
      serviceAccountName: "flotilla-controller",
    });
  });

  it("prints intervals as Go's time.Duration does", () => {
    expect(["1m", "90s", "1h", "1h30m", "500ms", "2m0s"].map(goDurationString)).toEqual([
      "1m0s",
      "1m30s",
      "1h0m0s",
      "1h30m0s",
      "500ms",
      "2m0s",
    ]);
  });
});
