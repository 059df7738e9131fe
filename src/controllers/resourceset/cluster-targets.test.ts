import { describe, expect, it } from "vitest";
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { ResourceSet } from "../../api/operator/resourceset.js";
import { ReconcileFailure } from "../kit/failure.js";
import { buildResourceSet } from "./build.js";
import { clusterInputs, clusterSelectorOf, TARGET_CLUSTERS_ANNOTATION } from "./cluster-targets.js";
import { inputId } from "./inputs.js";

const rset = (annotations: Record<string, string> = {}) =>
  ({
    apiVersion: "fluxcd.controlplane.io/v1",
    kind: "ResourceSet",
    metadata: { name: "apps", namespace: "fleet", annotations },
    spec: {},
  }) as ResourceSet;

const cluster: FleetCluster = {
  apiVersion: "fleet.flotilla.dev/v1alpha1",
  kind: "Cluster",
  metadata: { name: "tenant1", namespace: "fleet", labels: { env: "prod" } },
  spec: { kubeConfig: { secretRef: { name: "tenant1-admin-kubeconfig", key: "admin.conf" } }, variables: { ns: "t1" } },
};

describe("ResourceSet cluster targets (decision 0048)", () => {
  it("reads the selector from the annotation, and none means the ResourceSet's own cluster", () => {
    expect(clusterSelectorOf(rset())).toBeUndefined();
    expect(clusterSelectorOf(rset({ [TARGET_CLUSTERS_ANNOTATION]: " env=prod " }))).toBe("env=prod");
    expect(clusterSelectorOf(rset({ [TARGET_CLUSTERS_ANNOTATION]: "" }))).toBe("");
  });

  it("refuses any other fleet.flotilla.dev annotation by name, stalled", () => {
    let err: unknown;
    try {
      clusterSelectorOf(rset({ "fleet.flotilla.dev/rollouts": "stages" }));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ReconcileFailure);
    expect((err as ReconcileFailure).message).toBe(
      "the annotation fleet.flotilla.dev/rollouts on ResourceSet/fleet/apps is not known to flotilla: the fleet annotations of a ResourceSet are fleet.flotilla.dev/target-clusters, fleet.flotilla.dev/rollout, fleet.flotilla.dev/approve, fleet.flotilla.dev/on-cluster-removal, fleet.flotilla.dev/cluster-removal-grace-period (decisions 0048, 0053)",
    );
    expect((err as ReconcileFailure).stalled).toBe(true);
  });

  it("refuses a rollout or removal annotation on a ResourceSet that does not target Clusters", () => {
    expect(() => clusterSelectorOf(rset({ "fleet.flotilla.dev/rollout": "stages: []" }))).toThrow(
      "the annotation fleet.flotilla.dev/rollout on ResourceSet/fleet/apps needs fleet.flotilla.dev/target-clusters: add it, or remove fleet.flotilla.dev/rollout",
    );
    expect(clusterSelectorOf(rset({ "fleet.flotilla.dev/approve": "canary@sha256:1" }))).toBeUndefined();
  });

  it("gives each input set the cluster, or one set of its own when the ResourceSet has no inputs", () => {
    expect(clusterInputs([{ app: "a" }, { app: "b" }], cluster, rset()).map((s) => s.app)).toEqual(["a", "b"]);
    const [own] = clusterInputs([], cluster, rset());
    expect(own).toEqual({
      id: inputId("fleet/tenant1"),
      cluster: {
        name: "tenant1",
        namespace: "fleet",
        labels: { env: "prod" },
        variables: { ns: "t1" },
        kubeConfig: { secretRef: { name: "tenant1-admin-kubeconfig", key: "admin.conf" } },
      },
      provider: { apiVersion: "fleet.flotilla.dev/v1alpha1", kind: "Cluster", name: "tenant1", namespace: "fleet" },
    });
  });

  it("renders a template with the cluster's fields through the operator's engine", () => {
    const objects = buildResourceSet(
      {
        resourcesTemplate:
          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: << inputs.app >>\n  namespace: << inputs.cluster.variables.ns >>\ndata:\n  secret: << inputs.cluster.kubeConfig.secretRef.name >>\n",
      },
      clusterInputs([{ app: "a" }], cluster, rset()),
    );
    expect(objects).toEqual([
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "a", namespace: "t1" },
        data: { secret: "tenant1-admin-kubeconfig" },
      },
    ]);
  });

  it("refuses an input set that already has a key cluster, naming it", () => {
    expect(() => clusterInputs([{ app: "a" }, { cluster: "x" }], cluster, rset())).toThrow(
      "build failed: inputs[1] of ResourceSet/fleet/apps has a key 'cluster', which fleet.flotilla.dev/target-clusters sets: rename the input",
    );
  });
});
