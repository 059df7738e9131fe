import { describe, expect, it } from "vitest";
import { renderResourceSet } from "./build-resourceset.js";

const manifest = (annotation: string) => `apiVersion: fluxcd.controlplane.io/v1
kind: ResourceSet
metadata:
  name: apps
  namespace: fleet
  annotations:
    ${annotation}: "env=prod"
spec:
  resourcesTemplate: |
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: << inputs.cluster.name >>
`;

describe("flotilla build resourceset and fleet Clusters (decision 0048)", () => {
  it("refuses a ResourceSet targeting Clusters by the annotation's name: a local build has no Clusters", () => {
    expect(() =>
      renderResourceSet({ manifest: manifest("fleet.flotilla.dev/target-clusters"), namespace: "" }),
    ).toThrow(
      "ResourceSet/fleet/apps: the annotation fleet.flotilla.dev/target-clusters makes its inputs per fleet Cluster, read from the management cluster (decision 0048): a local build cannot expand them; use flotilla plan, or remove the annotation and give the cluster fields with --inputs-from",
    );
  });
});
