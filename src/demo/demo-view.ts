// What the demo shows, in the columns of `flux get sources git`, `flux get kustomizations` and
// `kubectl get deployments`, plus each tenant's greeting.
import type { Cluster } from "../kube/cluster.js";
import { NotFoundError } from "../kube/errors.js";
import { USED_KINDS } from "../api/kinds.js";
import type { KubeObject } from "../api/meta/object.js";
import type { HelmRelease } from "../api/helm/helmrelease.js";
import type { FleetCluster } from "../api/fleet/cluster.js";
import type { FleetHelmRelease } from "../api/fleet/fleet-helmrelease.js";
import { ADDON_NAMESPACE, ADDON_RELEASE } from "./addon-releases.js";
import { pathOf } from "../api/paths.js";

export interface DemoView {
  step(message: string): void;
  table(headers: string[], rows: string[][]): void;
}

type Table = [headers: string[], rows: string[][]];

interface Condition {
  type: string;
  status: string;
  message?: string;
}
interface FluxObject extends KubeObject {
  spec?: { suspend?: boolean };
  status?: {
    conditions?: Condition[];
    artifact?: { revision?: string };
    lastAppliedRevision?: string;
    lastHandledReconcileAt?: string;
  };
}

export interface KustomizationSummary {
  name: string;
  namespace: string;
  ready: string;
  message: string;
  suspended: boolean;
  lastAppliedRevision: string;
  lastHandledReconcileAt?: string;
}

const ready = (o: FluxObject) => o.status?.conditions?.find((c) => c.type === "Ready");

export async function readKustomization(mgmt: Cluster, path: string): Promise<KustomizationSummary> {
  const k = await mgmt.client.get<FluxObject>(path);
  return {
    name: k.metadata.name,
    namespace: k.metadata.namespace ?? "",
    ready: ready(k)?.status ?? "Unknown",
    message: ready(k)?.message ?? "",
    suspended: k.spec?.suspend === true,
    lastAppliedRevision: k.status?.lastAppliedRevision ?? "",
    lastHandledReconcileAt: k.status?.lastHandledReconcileAt,
  };
}

export function sourceRows(sources: FluxObject[]): Table {
  return [
    ["NAMESPACE", "NAME", "REVISION", "SUSPENDED", "READY", "MESSAGE"],
    sources.map((s) => [
      s.metadata.namespace ?? "",
      s.metadata.name,
      s.status?.artifact?.revision ?? "",
      String(s.spec?.suspend === true),
      ready(s)?.status ?? "Unknown",
      ready(s)?.message ?? "",
    ]),
  ];
}

export function kustomizationRows(ks: KustomizationSummary[]): Table {
  return [
    ["NAMESPACE", "NAME", "REVISION", "SUSPENDED", "READY", "MESSAGE"],
    ks.map((k) => [k.namespace, k.name, k.lastAppliedRevision, String(k.suspended), k.ready, k.message]),
  ];
}

interface Deployment {
  spec?: {
    replicas?: number;
    template?: { spec?: { containers?: { envFrom?: { configMapRef?: { name?: string } }[] }[] } };
  };
  status?: { readyReplicas?: number };
}

export interface TenantApp {
  cluster: string;
  /** Undefined when the app is not deployed there. */
  replicas?: number;
  ready?: number;
  /** What the app says it is configured with (podinfo's greeting, the add-on's cluster value). */
  message?: string;
}

type Tenants = { name: string; cluster: Cluster }[];
interface AppRef {
  namespace: string;
  name: string;
  /** The ConfigMap the app reads, and the key shown as its message. */
  configMap: (d: Deployment) => string | undefined;
  key: string;
}

/** One Deployment on each tenant plane: desired and ready replicas and its configured message. */
async function readTenantDeployments(tenants: Tenants, app: AppRef): Promise<TenantApp[]> {
  return Promise.all(
    tenants.map(async ({ name, cluster }) => {
      try {
        const d = await cluster.client.get<Deployment>(pathOf(USED_KINDS.Deployment, app.namespace, app.name));
        const cmName = app.configMap(d);
        const cm = cmName
          ? await cluster.client.get<{ data?: Record<string, string> }>(
              pathOf(USED_KINDS.ConfigMap, app.namespace, cmName),
            )
          : undefined;
        return {
          cluster: name,
          replicas: d.spec?.replicas ?? 0,
          ready: d.status?.readyReplicas ?? 0,
          message: cm?.data?.[app.key] ?? "",
        };
      } catch (err) {
        if (err instanceof NotFoundError) return { cluster: name };
        throw err;
      }
    }),
  );
}

/** podinfo on each tenant plane and the greeting it serves. */
export const readTenantApps = (tenants: Tenants) =>
  readTenantDeployments(tenants, {
    namespace: "podinfo",
    name: "podinfo",
    // The generated ConfigMap's name carries a content hash; follow the Deployment's reference.
    configMap: (d) => d.spec?.template?.spec?.containers?.[0]?.envFrom?.[0]?.configMapRef?.name,
    key: "message",
  });

/** The add-on each HelmRelease installed, read from the tenant cluster itself, and its cluster value. */
export const readTenantAddons = (tenants: Tenants) =>
  readTenantDeployments(tenants, {
    namespace: ADDON_NAMESPACE,
    name: ADDON_RELEASE,
    configMap: () => `${ADDON_RELEASE}-config`,
    key: "cluster",
  });

/** READY as kubectl prints it (ready/desired). */
function deploymentRows(deployment: string, messageHeader: string, apps: TenantApp[]): Table {
  return [
    ["CLUSTER", "DEPLOYMENT", "READY", messageHeader],
    apps.map((a) =>
      a.replicas === undefined
        ? [a.cluster, deployment, "-", "(not deployed)"]
        : [a.cluster, deployment, `${a.ready}/${a.replicas}`, a.message ?? ""],
    ),
  ];
}

export const tenantRows = (apps: TenantApp[]) => deploymentRows("podinfo/podinfo", "MESSAGE", apps);
export const addonRows = (apps: TenantApp[]) =>
  deploymentRows(`${ADDON_NAMESPACE}/${ADDON_RELEASE}`, "CLUSTER VALUE", apps);

/** `flux get helmreleases`: REVISION is the chart version last attempted. */
export function helmReleaseRows(releases: HelmRelease[]): Table {
  return [
    ["NAMESPACE", "NAME", "REVISION", "SUSPENDED", "READY", "MESSAGE"],
    releases.map((r) => [
      r.metadata.namespace ?? "",
      r.metadata.name,
      r.status?.lastAttemptedRevision ?? "",
      String(r.spec.suspend === true),
      ready(r as FluxObject)?.status ?? "Unknown",
      ready(r as FluxObject)?.message ?? "",
    ]),
  ];
}

/** `flotilla get clusters`: VERSION where Flux's kinds show a revision. */
export function clusterRows(clusters: FleetCluster[]): Table {
  return [
    ["NAMESPACE", "NAME", "VERSION", "READY", "MESSAGE"],
    clusters.map((c) => [
      c.metadata.namespace ?? "",
      c.metadata.name,
      c.status?.kubernetesVersion ?? "",
      ready(c as unknown as FluxObject)?.status ?? "Unknown",
      ready(c as unknown as FluxObject)?.message ?? "",
    ]),
  ];
}

/** `flotilla get fleethelmreleases`: how many of its clusters are ready. */
export function fleetRows(fleet: FleetHelmRelease[]): Table {
  return [
    ["NAMESPACE", "NAME", "CLUSTERS", "READY", "MESSAGE"],
    fleet.map((f) => [
      f.metadata.namespace ?? "",
      f.metadata.name,
      `${f.status?.counts?.ready ?? 0}/${f.status?.counts?.total ?? 0}`,
      ready(f as unknown as FluxObject)?.status ?? "Unknown",
      ready(f as unknown as FluxObject)?.message ?? "",
    ]),
  ];
}
