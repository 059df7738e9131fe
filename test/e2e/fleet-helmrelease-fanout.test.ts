// The Kamaji guide's add-on at fleet scale: one FleetHelmRelease selecting every Kamaji cluster installs a
// chart (from a chart repository on loopback) in every tenant plane by the real helm, each release with
// its cluster's own values; `helm ls` on each plane shows it. The real `flotilla controller` runs every
// controller involved, sharded to this file's namespace.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetHelmRelease } from "../../src/api/fleet/fleet-helmrelease.js";
import { SERVED_KINDS, USED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { benchChart } from "../support/charts.js";
import { eventually, planeCluster } from "../support/fleet-context.js";
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
    const admin = await mgmt.client.get<{ data: Record<string, string> }>(
      pathOf(USED_KINDS.Secret, "tenants", `${t}-admin-kubeconfig`),
    );
    await mgmt.client.create(pathOf(USED_KINDS.Secret, env.ns), {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: `${t}-admin-kubeconfig`, namespace: env.ns },
      data: { "admin.conf": admin.data["admin.conf"]! },
    });
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
        return o.status?.conditions?.find((c) => c.type === "Ready")?.status === "True" ? o : undefined;
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
});
