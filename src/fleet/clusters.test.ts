import { describe, expect, it } from "vitest";
import type { FleetCluster } from "../api/fleet/cluster.js";
import {
  clusterVariables,
  expandClusterVariables,
  labelVariable,
  selects,
  UndefinedClusterVariable,
} from "./clusters.js";

const cluster = (name: string, labels: Record<string, string>, variables?: Record<string, string>): FleetCluster => ({
  apiVersion: "fleet.flotilla.dev/v1alpha1",
  kind: "Cluster",
  metadata: { name, namespace: "fleet", labels },
  spec: { kubeConfig: { secretRef: { name: `${name}-kubeconfig` } }, ...(variables ? { variables } : {}) },
});

describe("which clusters a fleet selector picks", () => {
  const eu = cluster("eu", { env: "prod", region: "eu-west-1" });
  const us = cluster("us", { env: "prod", region: "us-east-1" });
  const dev = cluster("dev", { env: "dev" });

  it("matches labels and expressions (In, NotIn, Exists, DoesNotExist), all of them", () => {
    const pick = (s: Parameters<typeof selects>[0]) =>
      [eu, us, dev].filter((c) => selects(s, c)).map((c) => c.metadata.name);
    expect(pick({ matchLabels: { env: "prod" } })).toEqual(["eu", "us"]);
    expect(pick({ matchExpressions: [{ key: "region", operator: "In", values: ["eu-west-1"] }] })).toEqual(["eu"]);
    expect(pick({ matchExpressions: [{ key: "region", operator: "NotIn", values: ["eu-west-1"] }] })).toEqual([
      "us",
      "dev",
    ]);
    expect(pick({ matchExpressions: [{ key: "region", operator: "Exists" }] })).toEqual(["eu", "us"]);
    expect(pick({ matchExpressions: [{ key: "region", operator: "DoesNotExist" }] })).toEqual(["dev"]);
    expect(
      pick({
        matchLabels: { env: "prod" },
        matchExpressions: [{ key: "region", operator: "In", values: ["us-east-1"] }],
      }),
    ).toEqual(["us"]);
  });

  it("adds clusters named explicitly; names alone pick only those; an empty selector picks every cluster", () => {
    const pick = (s: Parameters<typeof selects>[0]) =>
      [eu, us, dev].filter((c) => selects(s, c)).map((c) => c.metadata.name);
    expect(pick({ matchLabels: { env: "prod" }, names: ["dev"] })).toEqual(["eu", "us", "dev"]);
    expect(pick({ names: ["dev"] })).toEqual(["dev"]);
    expect(pick({})).toEqual(["eu", "us", "dev"]);
  });
});

describe("a cluster's values for its child", () => {
  it("names the cluster, its namespace and every label (non-alphanumerics as _), then its own variables", () => {
    const c = cluster(
      "eu",
      { "topology.kubernetes.io/region": "eu-west-1" },
      { tier: "gold", cluster_name: "override" },
    );
    expect(labelVariable("topology.kubernetes.io/region")).toBe("cluster_label_topology_kubernetes_io_region");
    expect(clusterVariables(c)).toEqual({
      cluster_name: "override",
      cluster_namespace: "fleet",
      cluster_label_topology_kubernetes_io_region: "eu-west-1",
      tier: "gold",
    });
  });

  it("expands ${var} in a path, refusing one the cluster does not define by name", () => {
    const vars = { cluster_name: "eu" };
    expect(expandClusterVariables("./apps/${cluster_name}", vars, "spec.template.spec.path")).toBe("./apps/eu");
    expect(() => expandClusterVariables("./apps/${region}", vars, "spec.template.spec.path")).toThrow(
      new UndefinedClusterVariable("spec.template.spec.path uses ${region}, which this cluster does not define"),
    );
  });
});
