// The Kamaji guide's add-on at fleet scale: one FleetHelmRelease selecting every Kamaji cluster installs a
// chart (from a chart repository on loopback) in every tenant plane by the real helm, each release with
// its cluster's own values; `helm ls` on each plane shows it. The real `flotilla controller` runs every
// controller involved, sharded to this file's namespace.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetHelmRelease } from "../../src/api/fleet/fleet-helmrelease.js";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { benchChart } from "../support/charts.js";
import { runCli } from "../support/cli.js";
import { eventually, plane, planeCluster } from "../support/fleet-context.js";
import { copyKubeconfig } from "../support/harness.js";
import { type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";

const SHARD = "flotilla.dev/shard";
const mgmt = planeCluster("management");
const tenants = ["tenant1", "tenant2"] as const;
// One target namespace name on every plane (a release's namespace is part of the template).
const TARGET = `fleet-addon-${process.pid}`;
let env: HelmReleaseEnv;

const fhrPath = () => pathOf(SERVED_KINDS.FleetHelmRelease, env.ns, "addon");

beforeAll(async () => {
  env = await startHelmReleaseEnv("fleethr");
  await benchChart(env.charts);
  // The controller installs the fleet CRDs as it starts (--install-crds): wait until they are served.
  for (const kind of [SERVED_KINDS.Cluster, SERVED_KINDS.FleetHelmRelease])
    await eventually(`${kind.kind} served`, () => mgmt.client.get(pathOf(kind, env.ns)).then(() => true), 60_000, 500);
  for (const t of tenants) {
    await copyKubeconfig(mgmt, t, env.ns);
    await mgmt.client.create(pathOf(SERVED_KINDS.Cluster, env.ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "Cluster",
      metadata: { name: t, namespace: env.ns, labels: { [SHARD]: env.ns, "kamaji.clastix.io/tenant": "true" } },
      spec: { kubeConfig: { secretRef: { name: `${t}-admin-kubeconfig`, key: "admin.conf" } }, interval: "10s" },
    });
  }
}, 180_000);

afterAll(async () => {
  await mgmt.client.delete(fhrPath()).catch(() => {});
  // The children uninstall their releases as they go; then the target namespaces.
  await eventually(
    "the children gone",
    async () =>
      (await mgmt.client.get<{ items: unknown[] }>(pathOf(SERVED_KINDS.HelmRelease, env.ns))).items.length === 0,
    120_000,
  ).catch(() => {});
  for (const t of tenants)
    await planeCluster(t)
      .client.delete(`/api/v1/namespaces/${TARGET}`)
      .catch(() => {});
  await env?.stop();
}, 180_000);

describe("FleetHelmRelease", () => {
  it("installs the chart on every selected tenant plane, each with its cluster's values", async () => {
    await mgmt.client.create(pathOf(SERVED_KINDS.FleetHelmRelease, env.ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "FleetHelmRelease",
      metadata: { name: "addon", namespace: env.ns, labels: { [SHARD]: env.ns } },
      spec: {
        clusterSelector: { matchLabels: { "kamaji.clastix.io/tenant": "true" } },
        template: {
          metadata: { labels: { [SHARD]: env.ns } },
          spec: {
            interval: "10m",
            timeout: "60s",
            targetNamespace: TARGET,
            releaseName: "addon",
            install: { createNamespace: true },
            chart: {
              metadata: { labels: { [SHARD]: env.ns } },
              spec: { chart: "bench", version: "1.0.0", sourceRef: { kind: "HelmRepository", name: "charts" } },
            },
            values: { message: "installed on ${cluster_name}" },
          },
        },
      },
    });
    const fhr = await eventually(
      "the FleetHelmRelease Ready on both planes",
      async () => {
        const o = await mgmt.client.get<FleetHelmRelease>(fhrPath());
        if (o.status?.conditions?.find((c) => c.type === "Ready")?.status === "True") return o;
        // Not yet: what each cluster's child says, for the message should this time out.
        throw new Error(JSON.stringify({ ready: o.status?.conditions, clusters: o.status?.clusters }));
      },
      240_000,
      1000,
    );
    expect(fhr.status?.counts).toMatchObject({ total: 2, ready: 2 });
    expect(fhr.status?.clusters?.map((c) => [c.cluster, c.child, c.revision])).toEqual([
      ["tenant1", "addon-tenant1", "1.0.0"],
      ["tenant2", "addon-tenant2", "1.0.0"],
    ]);
    for (const t of tenants) {
      const cm = await planeCluster(t).client.get<{ data: Record<string, string> }>(
        `/api/v1/namespaces/${TARGET}/configmaps/addon`,
      );
      expect(cm.data.message).toBe(`installed on ${t}`);
      // A real Helm release on that plane.
      const ls = JSON.parse(await env.helm(["ls", "-n", TARGET, "-o", "json"], t)) as {
        name: string;
        status: string;
      }[];
      expect(ls.map((r) => [r.name, r.status])).toEqual([["addon", "deployed"]]);
    }
  }, 300_000);
  it("a staged rollout holds the second stage at its chart version until the gate is approved", async () => {
    // Added to the running fan-out: each child is held at the version it runs, then stages by version.
    await mgmt.client.patch(fhrPath(), "merge", {
      spec: {
        template: { spec: { chart: { spec: { version: ">=1.0.0" } } } },
        rollout: {
          stages: [
            { name: "first", clusterSelector: { names: ["tenant1"] } },
            { name: "second", clusterSelector: { names: ["tenant2"] }, approval: "Manual" },
          ],
        },
      },
    });
    const stage = async (name: string) =>
      (await mgmt.client.get<FleetHelmRelease>(fhrPath())).status?.rollout?.stages.find((s) => s.name === name);
    await eventually("both stages complete at 1.0.0", async () => {
      const [a, b] = [await stage("first"), await stage("second")];
      return a?.phase === "Complete" && b?.phase === "Complete" && b.completedRevision === "1.0.0";
    });
    await benchChart(env.charts, "bench", "2.0.0");
    // The chart repository's index and the fleet's tracking chart fetched now rather than at their interval.
    const at = new Date().toISOString();
    const annotate = { metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": at } } };
    await mgmt.client.patch(pathOf(SERVED_KINDS.HelmRepository, env.ns, "charts"), "merge", annotate);
    await eventually(
      "the index with 2.0.0",
      async () =>
        (
          await mgmt.client.get<{ status?: { lastHandledReconcileAt?: string } }>(
            pathOf(SERVED_KINDS.HelmRepository, env.ns, "charts"),
          )
        ).status?.lastHandledReconcileAt === at,
    );
    await mgmt.client.patch(pathOf(SERVED_KINDS.HelmChart, env.ns, "addon-rollout"), "merge", annotate);
    const chartVersionOn = async (t: string) =>
      (JSON.parse(await env.helm(["ls", "-n", TARGET, "-o", "json"], t)) as { chart: string }[])[0]?.chart;
    await eventually(
      "tenant1 upgraded to 2.0.0",
      async () => (await chartVersionOn("tenant1")) === "bench-2.0.0",
      180_000,
    );
    const gate = await eventually("the second stage waiting for approval of 2.0.0", async () => {
      const s = await stage("second");
      return s?.phase === "WaitingForApproval" && s.revision === "2.0.0" ? s : undefined;
    });
    expect(gate.message).toContain("flotilla approve fleethelmrelease addon");
    expect(await chartVersionOn("tenant2")).toBe("bench-1.0.0");
    const child = await mgmt.client.get<{ spec: { chart: { spec: { version: string } } } }>(
      pathOf(SERVED_KINDS.HelmRelease, env.ns, "addon-tenant2"),
    );
    expect(child.spec.chart.spec.version).toBe("1.0.0");
    const approved = await runCli([
      "approve",
      "fhr",
      "addon",
      "-n",
      env.ns,
      "--kubeconfig",
      plane("management").kubeconfig,
    ]);
    expect(approved.code, approved.stderr).toBe(0);
    await eventually(
      "tenant2 upgraded to 2.0.0",
      async () => (await chartVersionOn("tenant2")) === "bench-2.0.0",
      180_000,
    );
  }, 420_000);
});
