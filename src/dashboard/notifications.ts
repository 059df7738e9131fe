// What the dashboard shows of notifications, read from what the dispatcher already writes — no store
// of its own: an app's last notifications are the Events on Alerts labelled with the app's UID
// (delivery-record.ts: delivered or failed, provider, severity, reason, message); the Providers page
// lists each Provider's type, where it sends (scheme and host only, as notification-controller's errors
// name it: a webhook URL's path is often its token), Ready, and its recent failures — the failed
// deliveries recorded on its namespace's Alerts and its own DeliveryFailed/DeliveryRecovered Events.
// Nothing is read from a Secret.
import { SERVED_KINDS, USED_KINDS } from "../api/kinds.js";
import type { Condition } from "../api/meta/conditions.js";
import type { Provider } from "../api/notification/provider.js";
import { pathOf } from "../api/paths.js";
import {
  DELIVERED_REASON,
  DISPATCH_FAILED_REASON,
  NOTIFIED_UID_LABEL,
  readDeliveryRecord,
} from "../controllers/notification/delivery-record.js";
import { redactedAddress } from "../controllers/notification/send.js";
import type { KubeClient } from "../kube/client.js";

/** Rows per app and per Provider. */
export const LAST = 20;

export interface NotificationRow {
  time: string;
  /** The notified object (kind/namespace/name, as the delivery record names it). */
  object: string;
  alert: string;
  provider: string;
  severity: string;
  reason: string;
  message: string;
  delivered: boolean;
  /** For a failure: the dispatcher's message (the reason the send failed, address redacted). */
  error?: string;
}

export interface ProviderFailure {
  time: string;
  /** The Event's reason: NotificationDispatchFailed (one delivery), DeliveryFailed/DeliveryRecovered (the Provider). */
  reason: string;
  /** The notified object, for a delivery's failure. */
  object?: string;
  alert?: string;
  message: string;
}

export interface ProviderRow {
  namespace: string;
  name: string;
  type: string;
  address: string;
  ready: string;
  reason: string;
  message: string;
  suspended: boolean;
  failures: ProviderFailure[];
}

interface Ev {
  type?: string;
  reason?: string;
  message?: string;
  lastTimestamp?: string;
  eventTime?: string;
  metadata: { namespace?: string; creationTimestamp?: string; annotations?: Record<string, string> };
  involvedObject: { kind: string; name: string };
}

const timeOf = (e: Ev) => e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? "";
const newestFirst = <T extends { time: string }>(rows: T[]) =>
  rows.sort((a, b) => b.time.localeCompare(a.time)).slice(0, LAST);

/** Events the identity may not list (or a hiccup) leave a list empty, not the page failed. */
const listEvents = (client: KubeClient, namespace: string | undefined, query: Record<string, string>) =>
  client
    .listAll<Ev>(pathOf(USED_KINDS.Event, namespace), query)
    .then((l) => l.items)
    .catch(() => [] as Ev[]);

/** The last notifications about the object with this UID, newest first (Alerts may live in any namespace). */
export async function notificationsAbout(
  client: KubeClient,
  uid: string | undefined,
  namespace: string | undefined,
): Promise<NotificationRow[]> {
  if (!uid) return [];
  return deliveryRows(await listEvents(client, namespace, { labelSelector: `${NOTIFIED_UID_LABEL}=${uid}` }));
}

/** UIDs per list request: a set-based selector keeps the query a few KB. */
const UIDS_PER_LIST = 50;

/**
 * The last notifications about any of these objects (a cluster page's apps), newest first, each naming its
 * object: one list per 50 UIDs, filtered by the server, so a cluster of 200 apps costs 4 requests.
 */
export async function notificationsAboutAll(
  client: KubeClient,
  uids: string[],
  namespace: string | undefined,
): Promise<NotificationRow[]> {
  const chunks: string[][] = [];
  for (let i = 0; i < uids.length; i += UIDS_PER_LIST) chunks.push(uids.slice(i, i + UIDS_PER_LIST));
  const lists = await Promise.all(
    chunks.map((c) => listEvents(client, namespace, { labelSelector: `${NOTIFIED_UID_LABEL} in (${c.join(",")})` })),
  );
  return deliveryRows(lists.flat());
}

function deliveryRows(items: Ev[]): NotificationRow[] {
  const rows: NotificationRow[] = [];
  for (const e of items) {
    const r = readDeliveryRecord(e.metadata.annotations);
    const delivered = e.reason === DELIVERED_REASON;
    if (!r || e.involvedObject.kind !== "Alert" || (!delivered && e.reason !== DISPATCH_FAILED_REASON)) continue;
    rows.push({
      time: timeOf(e),
      object: r.object,
      alert: `${e.metadata.namespace ?? ""}/${e.involvedObject.name}`,
      provider: r.provider,
      severity: r.severity,
      reason: r.reason,
      message: r.message,
      delivered,
      ...(delivered ? {} : { error: e.message ?? "" }),
    });
  }
  return newestFirst(rows);
}

/** Where a Provider sends, for display: scheme and host of spec.address, or the Secret's name. */
export function shownAddress(p: Provider): string {
  if (p.spec.secretRef) return `from Secret ${p.spec.secretRef.name}`;
  if (!p.spec.address) return "";
  // A forge's scp-like address (git@host:owner/repo) is not a URL: its host is all that is shown.
  const scp = /^[^@/]+@([^:/]+):/.exec(p.spec.address);
  return scp ? scp[1]! : redactedAddress(p.spec.address);
}

/** Every Provider the identity may list, failing first, each with its recent failures. */
export async function providersPage(client: KubeClient, namespace: string | undefined): Promise<ProviderRow[]> {
  type P = Provider & { status?: { conditions?: Condition[] } };
  const providers = await client
    .listAll<P>(pathOf(SERVED_KINDS.Provider, namespace))
    .then((l) => l.items)
    .catch(() => [] as P[]);
  const namespaces = [...new Set(providers.map((p) => p.metadata.namespace!))];
  const failures = new Map<string, ProviderFailure[]>();
  const add = (ns: string, provider: string, f: ProviderFailure) => {
    const key = `${ns}/${provider}`;
    failures.set(key, [...(failures.get(key) ?? []), f]);
  };
  await Promise.all(
    namespaces.map(async (ns) => {
      const [onAlerts, onProviders] = await Promise.all([
        listEvents(client, ns, { fieldSelector: `involvedObject.kind=Alert,reason=${DISPATCH_FAILED_REASON}` }),
        listEvents(client, ns, { fieldSelector: "involvedObject.kind=Provider" }),
      ]);
      for (const e of onAlerts) {
        const r = readDeliveryRecord(e.metadata.annotations);
        if (!r) continue;
        const f = { time: timeOf(e), reason: e.reason ?? "", object: r.object, message: e.message ?? "" };
        add(ns, r.provider, { ...f, alert: e.involvedObject.name });
      }
      for (const e of onProviders)
        if (e.reason === "DeliveryFailed" || e.reason === "DeliveryRecovered")
          add(ns, e.involvedObject.name, { time: timeOf(e), reason: e.reason, message: e.message ?? "" });
    }),
  );
  return providers
    .map((p) => {
      const ready = p.status?.conditions?.find((c) => c.type === "Ready");
      const ns = p.metadata.namespace!;
      return {
        namespace: ns,
        name: p.metadata.name,
        type: p.spec.type,
        address: shownAddress(p),
        ready: ready?.status ?? "Unknown",
        reason: ready?.reason ?? "",
        message: ready?.message ?? "",
        suspended: p.spec.suspend === true,
        failures: newestFirst(failures.get(`${ns}/${p.metadata.name}`) ?? []),
      };
    })
    .sort(
      (a, b) =>
        Number(b.ready === "False") - Number(a.ready === "False") ||
        `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`),
    );
}
