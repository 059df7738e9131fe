import { describe, expect, it } from "vitest";
import { dependencyId, isOtherKind } from "./dependency-object.js";

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
