// The demo's Helm half, at fleet scale: one OCIRepository selecting the add-on chart in the local registry
// (helm's chart layer, copied — Flux's example's shape) and ONE FleetHelmRelease selecting every Cluster
// discovered from a Kamaji TenantControlPlane — its children, one HelmRelease per tenant plane with
// `chartRef` to the OCIRepository, install that chart there through the plane's admin kubeconfig, each with
// its cluster's name in the values and the release stored on the tenant (decisions 0018, 0023, 0035).
import { SERVED_KINDS, SOURCE_GROUP, apiVersionOf } from "../api/kinds.js";
import type { FleetCluster } from "../api/fleet/cluster.js";
import type { FleetHelmRelease } from "../api/fleet/fleet-helmrelease.js";
import type { HelmRelease } from "../api/helm/helmrelease.js";
import type { KubeObject } from "../api/meta/object.js";
import { pathOf } from "../api/paths.js";
import type { Cluster } from "../kube/cluster.js";
import { waitFor } from "../local/bootstrap.js";
import { TENANTS_NAMESPACE } from "../local/kamaji.js";
import { ADDON_CHART } from "./chart-registry.js";

const ns = TENANTS_NAMESPACE;
const DEMO_LABEL = { "flotilla.dev/demo": "true" };
/** Where the add-on runs in each tenant (created by the install) and its release name there. */
export const ADDON_NAMESPACE = "monitoring";
export const ADDON_RELEASE = ADDON_CHART.name;
export const ADDON_FLEET_RELEASE = ADDON_CHART.name;
/** The FleetHelmRelease's child for one tenant plane (`<name>-<cluster>`). */
export const addonReleaseName = (tenant: string) => `${ADDON_FLEET_RELEASE}-${tenant}`;
const DISCOVERED = { "fleet.flotilla.dev/discovered-from": "kamaji" };

const HELM_CHART_LAYER = "application/vnd.cncf.helm.chart.content.v1.tar+gzip";

export function addonReleaseObjects(chartUrl: string): KubeObject[] {
  const meta = (name: string) => ({ name, namespace: ns, labels: DEMO_LABEL });
  return [
    {
      apiVersion: `${SOURCE_GROUP}/v1`,
      kind: "OCIRepository",
      metadata: meta("addons"),
      spec: {
        interval: "10m",
        url: chartUrl,
        ref: { semver: "1.x" },
        insecure: true,
        layerSelector: { mediaType: HELM_CHART_LAYER, operation: "copy" },
      },
    },
    {
      apiVersion: apiVersionOf(SERVED_KINDS.FleetHelmRelease),
      kind: "FleetHelmRelease",
      metadata: meta(ADDON_FLEET_RELEASE),
      spec: {
        clusterSelector: { matchLabels: DISCOVERED },
        template: {
          // The children (and the HelmCharts made from them) carry the demo's label: its controllers watch them.
          metadata: { labels: DEMO_LABEL },
          spec: {
            interval: "10m",
            releaseName: ADDON_RELEASE,
            targetNamespace: ADDON_NAMESPACE,
            install: { createNamespace: true },
            chartRef: { kind: "OCIRepository", name: "addons" },
            values: { cluster: "${cluster_name}" },
          },
        },
      },
    },
  ] as KubeObject[];
}

/** Waits until discovery made a Ready Cluster of every tenant plane; returns them (for `get clusters`). */
export async function waitClustersReady(mgmt: Cluster, tenants: string[], timeoutMs: number): Promise<FleetCluster[]> {
  const read = (t: string) => mgmt.client.get<FleetCluster>(pathOf(SERVED_KINDS.Cluster, ns, t));
  for (const t of tenants)
    await waitFor(
      `Cluster ${ns}/${t} discovered from its TenantControlPlane and Ready`,
      async () =>
        (await read(t).catch(() => undefined))?.status?.conditions?.some(
          (c) => c.type === "Ready" && c.status === "True",
        ) === true,
      timeoutMs,
      500,
    );
  return Promise.all(tenants.map(read));
}

/** Waits until the FleetHelmRelease is Ready on every tenant; returns it and its children. */
export async function waitAddonsReady(
  mgmt: Cluster,
  tenants: string[],
  timeoutMs: number,
): Promise<{ fleet: FleetHelmRelease; releases: HelmRelease[] }> {
  const path = pathOf(SERVED_KINDS.FleetHelmRelease, ns, ADDON_FLEET_RELEASE);
  const readFleet = () => mgmt.client.get<FleetHelmRelease>(path);
  try {
    await waitFor(
      `FleetHelmRelease ${ns}/${ADDON_FLEET_RELEASE} Ready on ${tenants.join(", ")}`,
      async () => {
        const f = await readFleet();
        const ready = f.status?.conditions?.find((c) => c.type === "Ready")?.status === "True";
        const on = new Set(f.status?.clusters?.filter((c) => c.ready === "True").map((c) => c.cluster));
        return ready && tenants.every((t) => on.has(t));
      },
      timeoutMs,
      500,
    );
  } catch (err) {
    const c = await readFleet().then(
      (f) => f.status?.conditions?.find((x) => x.type === "Ready"),
      () => undefined,
    );
    throw new Error(`${(err as Error).message}${c ? ` (Ready=${c.status}: ${c.message})` : ""}`);
  }
  const releases = await Promise.all(
    tenants.map((t) => mgmt.client.get<HelmRelease>(pathOf(SERVED_KINDS.HelmRelease, ns, addonReleaseName(t)))),
  );
  return { fleet: await readFleet(), releases };
}
