// The demo's Helm half: one HelmRepository serving the add-on chart and one HelmRelease per tenant
// cluster, each installing that chart into its tenant through the Kamaji admin kubeconfig Secret —
// the Kamaji guide's shape, with the release stored on the tenant (decision 0018).
import { HELM_GROUP, SERVED_KINDS, SOURCE_GROUP } from "../api/kinds.js";
import type { HelmRelease } from "../api/helm/helmrelease.js";
import type { KubeObject } from "../api/meta/object.js";
import { pathOf } from "../api/paths.js";
import type { Cluster } from "../kube/cluster.js";
import { waitFor } from "../local/bootstrap.js";
import { adminKubeconfigSecretName, TENANTS_NAMESPACE } from "../local/kamaji.js";
import { ADDON_CHART } from "./chart-repository.js";

const ns = TENANTS_NAMESPACE;
const DEMO_LABEL = { "flotilla.dev/demo": "true" };
/** Where the add-on runs in each tenant (created by the install) and its release name there. */
export const ADDON_NAMESPACE = "monitoring";
export const ADDON_RELEASE = ADDON_CHART.name;
export const addonReleaseName = (tenant: string) => `${tenant}-${ADDON_CHART.name}`;

export function addonReleaseObjects(chartRepoUrl: string, tenants: string[]): KubeObject[] {
  const meta = (name: string) => ({ name, namespace: ns, labels: DEMO_LABEL });
  return [
    {
      apiVersion: `${SOURCE_GROUP}/v1`,
      kind: "HelmRepository",
      metadata: meta("addons"),
      spec: { interval: "10m", url: chartRepoUrl },
    },
    ...tenants.map((t) => ({
      apiVersion: `${HELM_GROUP}/v2`,
      kind: "HelmRelease",
      metadata: meta(addonReleaseName(t)),
      spec: {
        interval: "10m",
        releaseName: ADDON_RELEASE,
        targetNamespace: ADDON_NAMESPACE,
        install: { createNamespace: true },
        chart: {
          // The HelmChart made from this template is watched under the demo's label selector too.
          metadata: { labels: DEMO_LABEL },
          spec: { chart: ADDON_CHART.name, version: "1.x", sourceRef: { kind: "HelmRepository", name: "addons" } },
        },
        values: { cluster: t },
        kubeConfig: { secretRef: { name: adminKubeconfigSecretName(t), key: "admin.conf" } },
      },
    })),
  ] as KubeObject[];
}

/** Waits until every tenant's HelmRelease is Ready; returns them (for `flux get helmreleases` rows). */
export async function waitAddonsReady(mgmt: Cluster, tenants: string[], timeoutMs: number): Promise<HelmRelease[]> {
  const read = (t: string) => mgmt.client.get<HelmRelease>(pathOf(SERVED_KINDS.HelmRelease, ns, addonReleaseName(t)));
  const ready = (hr: HelmRelease) => hr.status?.conditions?.find((c) => c.type === "Ready");
  for (const t of tenants) {
    try {
      await waitFor(
        `HelmRelease ${ns}/${addonReleaseName(t)} Ready`,
        async () => ready(await read(t))?.status === "True",
        timeoutMs,
        500,
      );
    } catch (err) {
      const c = await read(t).then(ready, () => undefined);
      throw new Error(`${(err as Error).message}${c ? ` (Ready=${c.status}: ${c.message})` : ""}`);
    }
  }
  return Promise.all(tenants.map(read));
}
