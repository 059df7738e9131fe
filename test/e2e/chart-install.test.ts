// charts/flotilla installed by the real helm into a real plane (tenant1; kwok plays the node), sharded:
// the apiserver accepts every object (the shards' matchExpressions NetworkPolicy and PDBs included),
// the main and the shard Deployments become Available, and `helm uninstall` removes them. CRDs are
// skipped (--skip-crds: helm never deletes CRDs, and this plane stays without Flux's); the unit tests
// hold the chart's crds/ equal to install's.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { runHelm } from "../../src/binaries/helm/run.js";
import { waitForSet } from "../../src/ssa/index.js";
import { eventually, plane, planeCluster } from "../support/fleet-context.js";

const cluster = planeCluster("tenant1");
const kubeconfig = plane("tenant1").kubeconfig;

describe("helm install charts/flotilla", () => {
  it("installs the sharded controllers, which become Available, and helm uninstall removes them", async () => {
    const ns = `flotilla-chart-${randomBytes(3).toString("hex")}`;
    const deployments = ["flotilla-controller", "flotilla-controller-a"].map((name) => ({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name, namespace: ns },
    }));
    try {
      const installed = await runHelm(
        [
          "install",
          "flotilla",
          "charts/flotilla",
          "--namespace",
          ns,
          "--create-namespace",
          "--skip-crds",
          "--set",
          "sharding.shards={a},podDisruptionBudget.enabled=true,replicas=2",
        ],
        { kubeconfig, timeoutMs: 120_000 },
      );
      expect(installed.stdout).toContain("STATUS: deployed");
      await waitForSet(cluster, deployments, { timeoutMs: 90_000, intervalMs: 500 });
      const pdb = await cluster.get({
        apiVersion: "policy/v1",
        kind: "PodDisruptionBudget",
        metadata: { name: "flotilla-controller-a", namespace: ns },
      });
      expect(pdb).toBeDefined();

      await runHelm(["uninstall", "flotilla", "--namespace", ns, "--wait"], { kubeconfig, timeoutMs: 120_000 });
      await eventually(
        "the controller Deployments and the ClusterRoleBinding to be gone",
        async () => {
          const gone = await Promise.all(
            [
              ...deployments,
              {
                apiVersion: "rbac.authorization.k8s.io/v1",
                kind: "ClusterRoleBinding",
                metadata: { name: "flotilla-cluster-reconciler" },
              },
            ].map(async (o) => (await cluster.get(o)) === undefined),
          );
          return gone.every(Boolean);
        },
        60_000,
      );
    } finally {
      await cluster.client.delete(`/api/v1/namespaces/${ns}`).catch(() => undefined);
    }
  });
});
