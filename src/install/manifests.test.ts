import { describe, expect, it } from "vitest";
import { installManifests } from "./manifests.js";

const objects = installManifests({ namespace: "flux-system", image: "x", version: "1" });

describe("flotilla install's manifests", () => {
  it("carry every CRD the controllers watch, HelmRelease's included", () => {
    const crds = objects.filter((o) => o.kind === "CustomResourceDefinition").map((o) => o.metadata.name);
    expect(crds).toEqual([
      "gitrepositories.source.toolkit.fluxcd.io",
      "helmrepositories.source.toolkit.fluxcd.io",
      "helmcharts.source.toolkit.fluxcd.io",
      "kustomizations.kustomize.toolkit.fluxcd.io",
      "helmreleases.helm.toolkit.fluxcd.io",
      "clusters.fleet.flotilla.dev",
      "fleetkustomizations.fleet.flotilla.dev",
      "fleethelmreleases.fleet.flotilla.dev",
    ]);
  });

  it("bind the controller to cluster-admin, as Flux does: HelmReleases, and helm's release Secrets in any namespace, need no role of their own", () => {
    const binding = objects.find((o) => o.kind === "ClusterRoleBinding") as unknown as {
      roleRef: { name: string };
      subjects: { kind: string; name: string; namespace: string }[];
    };
    expect(binding.roleRef.name).toBe("cluster-admin");
    expect(binding.subjects).toEqual([
      { kind: "ServiceAccount", name: "flotilla-controller", namespace: "flux-system" },
    ]);
    expect(objects.filter((o) => ["Role", "ClusterRole", "RoleBinding"].includes(o.kind))).toEqual([]);
  });
});
