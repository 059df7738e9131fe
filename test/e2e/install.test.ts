// `flotilla install`: the exported manifests parse and apply to a real plane, where the controller
// Deployment becomes Available (kwok plays the node) and the CRDs are served.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseYamlDocuments } from "../../src/kustomize/yaml/parse.js";
import { waitForSet } from "../../src/ssa/index.js";
import { runCli } from "../support/cli.js";
import { plane, planeCluster } from "../support/fleet-context.js";

describe("flotilla install", () => {
  it("exports CRDs, namespace, RBAC, Service and Deployment that apply to a real plane", async () => {
    const ns = `flotilla-${randomBytes(3).toString("hex")}`;
    const exported = await runCli(["install", "--export", "--namespace", ns, "--multi-tenant"]);
    expect(exported.code).toBe(0);
    const kinds = parseYamlDocuments(exported.stdout, "install.yaml").map((d) => (d.value as { kind: string }).kind);
    expect(kinds).toEqual([
      ...Array(5).fill("CustomResourceDefinition"),
      "Namespace",
      "ServiceAccount",
      "ClusterRoleBinding",
      "Service",
      "Deployment",
    ]);
    expect(exported.stdout).toContain("--no-cross-namespace-refs=true");

    const applied = await runCli(["install", "--namespace", ns, "--kubeconfig", plane("tenant2").kubeconfig]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain(`Deployment/${ns}/flotilla-controller created`);
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
    await cluster.delete({ apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
  });
});
