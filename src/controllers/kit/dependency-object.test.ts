import { describe, expect, it } from "vitest";
import { dependencyId, fluxNotReady, isOtherKind } from "./dependency-object.js";

const ks = { apiVersion: "kustomize.toolkit.fluxcd.io/v1", kind: "Kustomization" };

describe("a dependsOn entry names another kind", () => {
  it("when its kind differs from the dependent's", () => {
    expect(isOtherKind({ apiVersion: "helm.toolkit.fluxcd.io/v2", kind: "HelmRelease", name: "a" }, ks)).toBe(true);
  });

  it("not when it has no kind, or names the dependent's own kind in any version of its group (the classic entry)", () => {
    expect(isOtherKind({ name: "a" }, ks)).toBe(false);
    expect(isOtherKind({ kind: "Kustomization", name: "a" }, ks)).toBe(false);
    expect(
      isOtherKind({ apiVersion: "kustomize.toolkit.fluxcd.io/v1beta2", kind: "Kustomization", name: "a" }, ks),
    ).toBe(false);
  });

  it("when the same kind name lives in another group (Cluster API's Kustomization is not Flux's)", () => {
    expect(isOtherKind({ apiVersion: "example.com/v1", kind: "Kustomization", name: "a" }, ks)).toBe(true);
  });

  it("is named Kind/namespace/name, or Kind/name when cluster-wide", () => {
    expect(dependencyId({ kind: "HelmRelease", name: "a" }, "apps")).toBe("HelmRelease/apps/a");
    expect(dependencyId({ kind: "CustomResourceDefinition", name: "w.example.com" }, undefined)).toBe(
      "CustomResourceDefinition/w.example.com",
    );
  });
});

describe("an another-kind dependency of a Flux kind", () => {
  const hr = (generation: number, status?: object) => ({
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    kind: "HelmRelease",
    metadata: { name: "crds", namespace: "apps", generation },
    ...(status ? { status } : {}),
  });
  const ready = (status: string, reason = "InstallSucceeded", message = "done") => ({
    observedGeneration: 2,
    conditions: [{ type: "Ready", status, reason, message, lastTransitionTime: "", observedGeneration: 2 }],
  });

  it("is ready only with Ready=True at its generation (kstatus alone calls Ready=False Current)", () => {
    expect(fluxNotReady(hr(2, ready("True")))).toBeUndefined();
    expect(fluxNotReady(hr(2))).toBe("its generation 2 is not reconciled yet");
    expect(fluxNotReady(hr(3, ready("True")))).toBe("its generation 3 is not reconciled yet");
    expect(fluxNotReady(hr(2, ready("False", "InstallFailed", "timed out")))).toBe(
      "Ready=False (InstallFailed): timed out",
    );
  });
});
