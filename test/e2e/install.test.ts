// `flotilla install`: the exported manifests parse and apply to a real plane, where the controller
// Deployment becomes Available (kwok plays the node) and the CRDs are served; `flotilla uninstall` then
// removes all of it (the plane is left without Flux CRDs, as it started) and keeps the workloads.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseYamlDocuments } from "../../src/kustomize/yaml/parse.js";
import { waitForSet } from "../../src/ssa/index.js";
import { runCli } from "../support/cli.js";
import { eventually, plane, planeCluster } from "../support/fleet-context.js";
import { NotFoundError } from "../../src/kube/errors.js";

describe("flotilla install", () => {
  it("exports CRDs, namespace, RBAC, Service and Deployment that apply to a real plane (with --pod-disruption-budget, its PDB); uninstall removes them and keeps the workloads", async () => {
    const ns = `flotilla-${randomBytes(3).toString("hex")}`;
    const exported = await runCli(["install", "--export", "--namespace", ns, "--multi-tenant"]);
    expect(exported.code).toBe(0);
    const kinds = parseYamlDocuments(exported.stdout, "install.yaml").map((d) => (d.value as { kind: string }).kind);
    expect(kinds).toEqual([
      ...Array(16).fill("CustomResourceDefinition"),
      "Namespace",
      "ServiceAccount",
      "ClusterRoleBinding",
      "Service",
      "Service",
      "Service",
      "Deployment",
      "NetworkPolicy",
      "NetworkPolicy",
      "NetworkPolicy",
    ]);
    expect(exported.stdout).toContain("--no-cross-namespace-refs=true");

    // With the optional PodDisruptionBudget, so the real apiserver validates it too.
    const applied = await runCli([
      "install",
      "--namespace",
      ns,
      "--pod-disruption-budget",
      "--kubeconfig",
      plane("tenant2").kubeconfig,
    ]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain(`Deployment/${ns}/flotilla-controller created`);
    expect(applied.stdout).toContain(`PodDisruptionBudget/${ns}/flotilla-controller created`);
    expect(applied.stdout).toContain(`NetworkPolicy/${ns}/allow-egress created`);
    const cluster = planeCluster("tenant2");
    await waitForSet(
      cluster,
      [{ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "flotilla-controller", namespace: ns } }],
      {
        timeoutMs: 60_000,
        intervalMs: 500,
      },
    );
    for (const served of [
      { group: "kustomize.toolkit.fluxcd.io", version: "v1", kind: "Kustomization" },
      { group: "helm.toolkit.fluxcd.io", version: "v2", kind: "HelmRelease" },
      { group: "helm.toolkit.fluxcd.io", version: "v2beta1", kind: "HelmRelease" },
    ])
      await cluster.discovery.waitForMapping(served, 30_000);

    // uninstall: asks first (no answer is a no), then removes flotilla and keeps what it deployed.
    const workload = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: `${ns}-workload`, namespace: "default" },
    };
    await cluster.client.create("/api/v1/namespaces/default/configmaps", {
      ...workload,
      metadata: {
        ...workload.metadata,
        labels: { "kustomize.toolkit.fluxcd.io/name": "apps", "kustomize.toolkit.fluxcd.io/namespace": ns },
      },
    });
    const ksPath = `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations`;
    await cluster.client.create(ksPath, {
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      kind: "Kustomization",
      metadata: { name: "apps", namespace: ns, finalizers: ["finalizers.fluxcd.io"] },
      spec: { interval: "10m", path: "./", prune: true, sourceRef: { kind: "GitRepository", name: "x" } },
    });
    const kubeconfig = plane("tenant2").kubeconfig;
    const asked = await runCli(["uninstall", "-n", ns, "--kubeconfig", kubeconfig]);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain(
      "Are you sure you want to delete flotilla and its custom resource definitions? [y/N] ",
    );
    expect(asked.stderr).toContain("✗ aborting\n");
    expect(
      await cluster.get({
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "flotilla-controller", namespace: ns },
      }),
    ).toBeDefined();

    const removed = await runCli(["uninstall", "-n", ns, "--silent", "--kubeconfig", kubeconfig]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toContain(`✔ Deployment/${ns}/flotilla-controller deleted\n`);
    expect(removed.stderr).toContain(`✔ PodDisruptionBudget/${ns}/flotilla-controller deleted\n`);
    expect(removed.stderr).toContain(`✔ Kustomization/${ns}/apps finalizers deleted\n`);
    expect(removed.stderr).toContain("✔ CustomResourceDefinition/kustomizations.kustomize.toolkit.fluxcd.io deleted\n");
    expect(removed.stderr.endsWith("✔ uninstall finished\n")).toBe(true);
    await eventually(
      "the Flux CRDs to be gone",
      async () =>
        (await cluster.client
          .get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/kustomizations.kustomize.toolkit.fluxcd.io`)
          .catch((e: Error) => e)) instanceof NotFoundError,
    );
    expect(await cluster.get(workload)).toBeDefined();
    await cluster.delete(workload);
  });
});
