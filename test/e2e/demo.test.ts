// The demo is the product's main job end to end; run it against the shared fleet exactly as the
// CLI does (Git over smart HTTP, controllers in-process, one Kustomization per tenant plane).
import { afterAll, describe, expect, it } from "vitest";
import { downFleet } from "../../src/local/fleet-down.js";
import { runDemo } from "../../src/demo/run-demo.js";
import { createLogger } from "../../src/runtime/logger.js";
import { runCli } from "../support/cli.js";
import { helmEnv, runHelm } from "../support/chart-repo.js";
import { adminClient, plane } from "../support/fleet-context.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const fresh = makeWorkDir("flotilla-demo-fresh-");
afterAll(() => downFleet(fresh).catch(() => {}));

describe("flotilla demo", () => {
  it("rolls a commit out to every tenant plane through its Kamaji kubeconfig Secret and puts hand-made drift back", async () => {
    const printed: string[] = [];
    const logLines: string[] = [];
    const demo = () =>
      runDemo({
        management: { name: "management", kubeconfig: plane("management").kubeconfig },
        tenants: ["tenant1", "tenant2"].map((name) => ({ name, kubeconfig: plane(name).kubeconfig })),
        storagePath: makeWorkDir("flotilla-demo-test-"),
        log: createLogger({ level: "info", write: (l) => logLines.push(l) }),
        view: {
          step: (m) => printed.push(m),
          table: (h, rows) => printed.push([h, ...rows].map((r) => r.join(" | ")).join("\n")),
        },
      });
    const result = await demo();
    expect(result.replicas).toEqual({ tenant1: 1, tenant2: 3 });
    expect(printed.join("\n")).toContain("tenant2 | podinfo/podinfo | 3/3 | scaled out on tenant2");

    for (const [tenant, replicas] of Object.entries({ tenant1: 1, tenant2: 3 })) {
      const d = await adminClient(tenant).get<{
        spec: { replicas: number };
        metadata: { labels: Record<string, string> };
      }>("/apis/apps/v1/namespaces/podinfo/deployments/podinfo");
      expect(d.spec.replicas, tenant).toBe(replicas);
      expect(d.metadata.labels["kustomize.toolkit.fluxcd.io/name"]).toBe(`${tenant}-apps`);
    }
    // Every Kamaji plane was discovered as a Ready Cluster, and one FleetHelmRelease gave each its
    // HelmRelease, which installed the add-on chart there with the real helm: `helm ls` with the tenant's
    // own kubeconfig lists the release, deployed, and each tenant got its own cluster's name in the values.
    expect(printed.join("\n")).toMatch(/tenants \| tenant1 \| v1\.\d+\.\d+ \| True/);
    expect(printed.join("\n")).toMatch(/tenants \| metrics-agent \| 2\/2 \| True \| 2\/2 clusters ready/);
    // The chart comes from the local registry through an OCIRepository: its version tracks the OCI digest.
    expect(printed.join("\n")).toMatch(/tenants \| metrics-agent-tenant1 \| 1\.0\.0\+[0-9a-f]{12} \| false \| True/);
    for (const tenant of ["tenant1", "tenant2"]) {
      const cm = await adminClient(tenant).get<{ data: Record<string, string> }>(
        "/api/v1/namespaces/monitoring/configmaps/metrics-agent-config",
      );
      expect(cm.data.cluster).toBe(tenant);
      const releases = JSON.parse(
        await runHelm(
          ["ls", "-n", "monitoring", "-o", "json", "--kubeconfig", plane(tenant).kubeconfig],
          helmEnv(makeWorkDir("flotilla-demo-helm-")),
        ),
      ) as { name: string; status: string; chart: string }[];
      expect(releases.map((r) => [r.name, r.status])).toEqual([["metrics-agent", "deployed"]]);
      expect(releases[0]!.chart).toMatch(/^metrics-agent-1\.0\.0\+[0-9a-f]{12}$/);
    }
    const mgmtAddons = await adminClient("management").get<{ items: unknown[] }>(
      "/apis/apps/v1/namespaces/monitoring/deployments",
    );
    expect(mgmtAddons.items).toEqual([]);

    // Nothing of this rollout lands on the management plane.
    const mgmtDeployments = await adminClient("management").get<{ items: unknown[] }>(
      "/apis/apps/v1/namespaces/podinfo/deployments",
    );
    expect(mgmtDeployments.items).toEqual([]);

    // The Git password lives in a Secret and is never printed or logged.
    const secret = await adminClient("management").get<{ data: { password: string } }>(
      "/api/v1/namespaces/tenants/secrets/fleet-infra-auth",
    );
    const password = Buffer.from(secret.data.password, "base64").toString();
    expect(password.length).toBeGreaterThan(8);
    expect(printed.join("\n")).not.toContain(password);
    expect(logLines.join("")).not.toContain(password);

    // Running it again is safe: same commits, same outcome.
    expect((await demo()).revision).toBe(result.revision);
  });

  it("runs as the README's demo does, on a fresh fleet with nothing installed, and the process exits", async () => {
    const up = await runCli(["local", "up", "--tenants", "1", "--dir", fresh]);
    expect(up.code, up.stderr).toBe(0);
    const demo = await runCli(["demo", "--dir", fresh], { timeoutMs: 240_000 });
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toMatch(/tenant1\s+podinfo\/podinfo\s+3\/3\s+scaled out on tenant1/);
    expect(demo.stdout).toMatch(/tenant1\s+monitoring\/metrics-agent\s+1\/1\s+tenant1/);
    expect(demo.stdout).toMatch(/tenants\s+metrics-agent\s+1\/1\s+True\s+1\/1 clusters ready/);
    expect(demo.stdout).toContain("drift corrected: podinfo on tenant1 is back to the 3 replica(s) Git declares");
    expect(demo.stderr).toMatch(/✔ every tenant plane runs main@sha1:[0-9a-f]{40}/);
  }, 300_000);
});
