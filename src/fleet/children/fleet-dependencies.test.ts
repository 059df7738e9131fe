import { describe, expect, it } from "vitest";
import { SERVED_KINDS } from "../../api/kinds.js";
import { childDependency, withFleetDependencies } from "./fleet-dependencies.js";

const FKS = SERVED_KINDS.FleetKustomization;
const FHR = SERVED_KINDS.FleetHelmRelease;
const FLEET = "fleet.flotilla.dev/v1alpha1";

describe("a fleet parent's dependsOn entry on one cluster", () => {
  it("plain (no kind) keeps today's meaning: the same kind's child on this cluster", () => {
    expect(childDependency({ name: "namespace" }, FKS, "tenant-a")).toEqual({ name: "namespace-tenant-a" });
    expect(childDependency({ kind: "FleetKustomization", apiVersion: FLEET, name: "ns" }, FKS, "t")).toEqual({
      name: "ns-t",
    });
  });

  it("naming the other fleet kind is that object's child on this cluster, of the child kind", () => {
    expect(
      childDependency({ apiVersion: FLEET, kind: "FleetHelmRelease", name: "crds", readyExpr: "true" }, FKS, "t"),
    ).toEqual({ apiVersion: "helm.toolkit.fluxcd.io/v2", kind: "HelmRelease", name: "crds-t", readyExpr: "true" });
    expect(
      childDependency({ apiVersion: FLEET, kind: "FleetKustomization", name: "crs", namespace: "x" }, FHR, "t"),
    ).toEqual({ apiVersion: "kustomize.toolkit.fluxcd.io/v1", kind: "Kustomization", name: "crs-t", namespace: "x" });
  });

  it("naming any other kind is handed to the child as written", () => {
    const crd = { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", name: "x.example.com" };
    expect(childDependency(crd, FKS, "t")).toBe(crd);
    const hr = { apiVersion: "helm.toolkit.fluxcd.io/v2", kind: "HelmRelease", name: "shared" };
    expect(childDependency(hr, FKS, "t")).toBe(hr);
    // A fleet kind's name in another group is not a fleet kind.
    const lookalike = { apiVersion: "example.com/v1", kind: "FleetHelmRelease", name: "y" };
    expect(childDependency(lookalike, FKS, "t")).toBe(lookalike);
  });

  it("comes after the template's own dependsOn entries", () => {
    const spec = { path: ".", dependsOn: [{ name: "fixed" }] };
    expect(withFleetDependencies(spec, [{ name: "ns" }], FKS, "t").dependsOn).toEqual([
      { name: "fixed" },
      { name: "ns-t" },
    ]);
    expect(withFleetDependencies(spec, undefined, FKS, "t")).toBe(spec);
  });
});
