// An app's page: its source and revision, conditions, history, the inventory as a tree (namespace →
// kind → names), its recent Events, the last notifications sent about it (notifications.ts); for a
// fleet parent the per-cluster table and the rollout stages; for a ResourceSet its input groups, providers
// and inventory per target (resourceset-page.ts).
// Only display fields are copied out of the objects — a HelmRelease's values, a Kustomization's
// substitutions and anything read from a Secret never leave the server.
import type { FleetStatus } from "../api/fleet/fleet-kustomization.js";
import { SERVED_KINDS, USED_KINDS } from "../api/kinds.js";
import type { Condition } from "../api/meta/conditions.js";
import type { KubeObject } from "../api/meta/object.js";
import { pathOf } from "../api/paths.js";
import type { FleetCache, WatchedKind } from "../fleet/status/fleet-cache.js";
import type { ResourceSet } from "../api/operator/resourceset.js";
import { inventoryTree } from "./inventory-tree.js";
import { notificationsAbout } from "./notifications.js";
import { resourceSetDetails } from "./resourceset-page.js";
import { isSuspended } from "./resourcesets.js";

export interface EventRow {
  type: string;
  reason: string;
  message: string;
  count: number;
  last: string;
  object: string;
}

type Obj = KubeObject & {
  spec: Record<string, unknown>;
  status?: Record<string, unknown> & { conditions?: Condition[] };
};

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** Events about these objects (kind/name) in a namespace, newest first. */
export async function eventsFor(
  cache: FleetCache,
  namespace: string,
  objects: { kind: string; name: string }[],
): Promise<EventRow[]> {
  const wanted = new Set(objects.map((o) => `${o.kind}/${o.name}`));
  type Ev = {
    type?: string;
    reason?: string;
    message?: string;
    count?: number;
    lastTimestamp?: string;
    eventTime?: string;
    metadata: { creationTimestamp?: string };
    involvedObject: { kind: string; name: string };
  };
  // One object: the server filters (an app page); several: one list of the namespace (a cluster page).
  const only = objects.length === 1 ? objects[0]! : undefined;
  const query = only ? { fieldSelector: `involvedObject.kind=${only.kind},involvedObject.name=${only.name}` } : {};
  // Events the identity may not list (or a hiccup) leave the list empty, not the whole page failed.
  const items = await cache.client
    .listAll<Ev>(pathOf(USED_KINDS.Event, namespace), query)
    .then((l) => l.items)
    .catch(() => [] as Ev[]);
  return items
    .filter((e) => wanted.has(`${e.involvedObject.kind}/${e.involvedObject.name}`))
    .map((e) => ({
      type: e.type ?? "Normal",
      reason: e.reason ?? "",
      message: e.message ?? "",
      count: e.count ?? 1,
      last: e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? "",
      object: `${e.involvedObject.kind}/${e.involvedObject.name}`,
    }))
    .sort((a, b) => b.last.localeCompare(a.last))
    .slice(0, 50);
}

function sourceOf(o: Obj): { kind: string; namespace: string; name: string } | undefined {
  const ns = o.metadata.namespace!;
  const ref = (o.spec.sourceRef ??
    (o.spec.chart as { spec?: { sourceRef?: unknown } } | undefined)?.spec?.sourceRef ??
    o.spec.chartRef) as { kind: string; name: string; namespace?: string } | undefined;
  return ref && { kind: ref.kind, name: ref.name, namespace: ref.namespace ?? ns };
}

async function sourceStatus(cache: FleetCache, ref: { kind: string; namespace: string; name: string }) {
  const kind = (SERVED_KINDS as Record<string, (typeof SERVED_KINDS)[keyof typeof SERVED_KINDS]>)[ref.kind];
  if (!kind) return { ...ref, ready: "Unknown", message: `${ref.kind} is not a kind flotilla reads` };
  try {
    const s = await cache.client.get<Obj>(pathOf(kind, ref.namespace, ref.name));
    const ready = s.status?.conditions?.find((c) => c.type === "Ready");
    const artifact = s.status?.artifact as { revision?: string } | undefined;
    return {
      ...ref,
      revision: artifact?.revision ?? "",
      ready: ready?.status ?? "Unknown",
      message: ready?.message ?? "",
    };
  } catch (err) {
    return { ...ref, ready: "Unknown", message: (err as Error).message };
  }
}

function summary(o: Obj) {
  const s = o.spec;
  const chart = (s.chart as { spec?: { chart?: string; version?: string } } | undefined)?.spec;
  const secret = (s.kubeConfig as { secretRef?: { name?: string } } | undefined)?.secretRef?.name;
  return Object.fromEntries(
    Object.entries({
      path: str(s.path),
      interval: str(s.interval),
      prune: typeof s.prune === "boolean" ? String(s.prune) : undefined,
      targetNamespace: str(s.targetNamespace),
      serviceAccountName: str(s.serviceAccountName),
      kubeConfigSecret: secret,
      chart: chart?.chart,
      chartVersion: chart?.version,
      releaseName: str(s.releaseName),
    }).filter(([, v]) => v !== undefined),
  );
}

/** `scope`: the dashboard's one namespace, if it has one (where Alerts' Events are looked for). */
export async function appPage(cache: FleetCache, kind: WatchedKind, namespace: string, name: string, scope?: string) {
  const o = cache.get<Obj>(kind, namespace, name);
  if (!o) return undefined;
  const status = o.status ?? {};
  const ready = (status.conditions ?? []).find((c) => c.type === "Ready");
  const source = sourceOf(o);
  const inventory = (status.inventory as { entries?: { id: string }[] } | undefined)?.entries ?? [];
  const history = ((status.history as Record<string, unknown>[] | undefined) ?? []).map((h) =>
    Object.fromEntries(
      [
        "chartName",
        "chartVersion",
        "version",
        "status",
        "lastDeployed",
        "digest",
        "lastReconciled",
        "lastReconciledStatus",
        "totalReconciliations",
      ]
        .filter((k) => h[k] !== undefined)
        .map((k) => [k, h[k]]),
    ),
  );
  // The operator's kinds record counts and versions in a snapshot's metadata (inputs, resources, clusters).
  history.forEach((row, i) => {
    const meta = (status.history as { metadata?: Record<string, string> }[])[i]?.metadata;
    if (meta)
      row.metadata = Object.entries(meta)
        .map(([k, v]) => `${k}=${v}`)
        .join(", ");
  });
  const fleet = kind === "FleetKustomization" || kind === "FleetHelmRelease" ? (status as FleetStatus) : undefined;
  return {
    kind,
    namespace,
    name,
    ready: ready?.status ?? "Unknown",
    message: ready?.message ?? "",
    suspended: kind === "ResourceSet" ? isSuspended(o as unknown as ResourceSet) : o.spec.suspend === true,
    revision: str(status.lastAppliedRevision) ?? str(status.lastAttemptedRevision) ?? "",
    spec: summary(o),
    source: source && (await sourceStatus(cache, source)),
    conditions: (status.conditions ?? []).map((c) => ({
      type: c.type,
      status: c.status,
      reason: c.reason,
      message: c.message,
      lastTransitionTime: c.lastTransitionTime,
    })),
    history,
    inventory: inventoryTree(inventory.map((e) => e.id)),
    events: await eventsFor(cache, namespace, [{ kind, name }]),
    notifications: await notificationsAbout(cache.client, o.metadata.uid, scope),
    ...(kind === "ResourceSet" ? { resourceSet: await resourceSetDetails(cache, o as unknown as ResourceSet) } : {}),
    ...(fleet ? { fleet: { counts: fleet.counts, clusters: fleet.clusters ?? [], rollout: fleet.rollout } } : {}),
  };
}
