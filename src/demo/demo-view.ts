// What the demo shows, in the columns of `flux get sources git`, `flux get kustomizations` and
// `kubectl get deployments`, plus each tenant's greeting.
import type { Cluster } from "../kube/cluster.js";
import { NotFoundError } from "../kube/errors.js";
import { USED_KINDS } from "../api/kinds.js";
import type { KubeObject } from "../api/meta/object.js";
import type { HelmRelease } from "../api/helm/helmrelease.js";
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
  /** Undefined when podinfo is not deployed there. */
  replicas?: number;
  ready?: number;
  message?: string;
}

/** podinfo on each tenant plane: desired and ready replicas and the greeting it serves. */
export async function readTenantApps(tenants: { name: string; cluster: Cluster }[]): Promise<TenantApp[]> {
  return Promise.all(
    tenants.map(async ({ name, cluster }) => {
      try {
        const d = await cluster.client.get<Deployment>(pathOf(USED_KINDS.Deployment, "podinfo", "podinfo"));
        // The generated ConfigMap's name carries a content hash; follow the Deployment's reference.
        const cmName = d.spec?.template?.spec?.containers?.[0]?.envFrom?.[0]?.configMapRef?.name;
        const ui = cmName
          ? await cluster.client.get<{ data?: Record<string, string> }>(pathOf(USED_KINDS.ConfigMap, "podinfo", cmName))
          : undefined;
        return {
          cluster: name,
          replicas: d.spec?.replicas ?? 0,
          ready: d.status?.readyReplicas ?? 0,
          message: ui?.data?.message ?? "",
        };
      } catch (err) {
        if (err instanceof NotFoundError) return { cluster: name };
        throw err;
      }
    }),
  );
}

/** READY as kubectl prints it (ready/desired). */
export function tenantRows(apps: TenantApp[]): Table {
  return [
    ["CLUSTER", "DEPLOYMENT", "READY", "MESSAGE"],
    apps.map((a) =>
      a.replicas === undefined
        ? [a.cluster, "podinfo/podinfo", "-", "(not deployed)"]
        : [a.cluster, "podinfo/podinfo", `${a.ready}/${a.replicas}`, a.message ?? ""],
    ),
  ];
}

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

export interface TenantAddon {
  cluster: string;
  /** Undefined when the add-on is not deployed there. */
  replicas?: number;
  ready?: number;
  /** The value the release rendered into its ConfigMap: the tenant's own name. */
  clusterValue?: string;
}

/** The add-on each HelmRelease installed, read from the tenant cluster itself. */
export async function readTenantAddons(tenants: { name: string; cluster: Cluster }[]): Promise<TenantAddon[]> {
  return Promise.all(
    tenants.map(async ({ name, cluster }) => {
      try {
        const d = await cluster.client.get<Deployment>(pathOf(USED_KINDS.Deployment, ADDON_NAMESPACE, ADDON_RELEASE));
        const cm = await cluster.client.get<{ data?: Record<string, string> }>(
          pathOf(USED_KINDS.ConfigMap, ADDON_NAMESPACE, `${ADDON_RELEASE}-config`),
        );
        return {
          cluster: name,
          replicas: d.spec?.replicas ?? 0,
          ready: d.status?.readyReplicas ?? 0,
          clusterValue: cm.data?.cluster ?? "",
        };
      } catch (err) {
        if (err instanceof NotFoundError) return { cluster: name };
        throw err;
      }
    }),
  );
}

export function addonRows(addons: TenantAddon[]): Table {
  const deployment = `${ADDON_NAMESPACE}/${ADDON_RELEASE}`;
  return [
    ["CLUSTER", "DEPLOYMENT", "READY", "CLUSTER VALUE"],
    addons.map((a) =>
      a.replicas === undefined
        ? [a.cluster, deployment, "-", "(not deployed)"]
        : [a.cluster, deployment, `${a.ready}/${a.replicas}`, a.clusterValue ?? ""],
    ),
  ];
}
