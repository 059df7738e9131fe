// The Flux Operator's distribution objects as the dashboard shows them (decision 0043): per namespace
// holding a FluxInstance or a FluxReport (one per cluster, named flux — others are Stalled by the
// controller and shown as such), a summary for the fleet page and a page of its own: the sync (kind, URL
// without credentials or query, ref, path), the components, what maps onto flotilla and what cannot (the
// DistributionMapped condition's lines), history, and the FluxReport's health and per-kind statistics.
// Display fields only: no Secret is read; the sync's pullSecret is shown by name.
import type { Condition } from "../api/meta/conditions.js";
import type { FluxInstance } from "../api/operator/fluxinstance.js";
import type { FluxReport } from "../api/operator/fluxreport.js";
import { getCondition } from "../runtime/conditions.js";
import type { FleetCache } from "../fleet/status/fleet-cache.js";
import { eventsFor } from "./app-page.js";
import { inventoryTree } from "./inventory-tree.js";

export interface FluxSummary {
  namespace: string;
  /** Whether a FluxInstance exists there (a FluxReport may exist alone: the controller writes one at start). */
  instance: boolean;
  ready: string;
  reason: string;
  message: string;
  revision: string;
  sync?: { kind: string; url: string; ref: string; path: string };
  /** FluxReport: distribution status and version, and the sync's health. */
  distribution?: string;
  syncReady?: boolean;
  syncStatus?: string;
}

/** A URL as shown: no user, password, query or fragment (a token can hide in any of them). */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    u.search = "";
    u.hash = "";
    return u.toString();
  } catch {
    // scp-like (git@host:org/repo) or not a URL: up to the first '?', without a user part's password.
    return url.split("?")[0]!.replace(/^([^@/:]+):[^@/]*@/, "$1@");
  }
}

const readyOf = (o?: { status?: { conditions?: Condition[] } }) => getCondition(o?.status?.conditions, "Ready");

function syncOf(fi?: FluxInstance) {
  const s = fi?.spec.sync;
  return s && { kind: s.kind, url: shownUrl(s.url), ref: s.ref, path: s.path };
}

function byNamespace(cache: Pick<FleetCache, "list">) {
  const out = new Map<string, { fi?: FluxInstance; report?: FluxReport }>();
  for (const fi of cache.list<FluxInstance>("FluxInstance"))
    out.set(fi.metadata.namespace!, { ...out.get(fi.metadata.namespace!), fi });
  for (const report of cache.list<FluxReport>("FluxReport"))
    out.set(report.metadata.namespace!, { ...out.get(report.metadata.namespace!), report });
  return out;
}

/** Every namespace with a FluxInstance or FluxReport, failing first. */
export function fluxSummaries(cache: Pick<FleetCache, "list">): FluxSummary[] {
  return [...byNamespace(cache)]
    .map(([namespace, { fi, report }]) => {
      const ready = readyOf(fi ?? report);
      const sync = syncOf(fi);
      const d = report?.spec.distribution;
      return {
        namespace,
        instance: fi !== undefined,
        ready: ready?.status ?? "Unknown",
        reason: ready?.reason ?? "",
        message: ready?.message ?? "",
        revision: fi?.status?.lastAppliedRevision ?? fi?.status?.lastAttemptedRevision ?? "",
        ...(sync ? { sync } : {}),
        ...(d ? { distribution: `${d.status}${d.version ? ` ${d.version}` : ""}` } : {}),
        ...(report?.spec.sync ? { syncReady: report.spec.sync.ready, syncStatus: report.spec.sync.status } : {}),
      };
    })
    .sort(
      (a, b) => Number(b.ready === "False") - Number(a.ready === "False") || a.namespace.localeCompare(b.namespace),
    );
}

const conditionRows = (cs: Condition[] = []) =>
  cs.map((c) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message }));

/** One namespace's FluxInstance and FluxReport, or undefined when it has neither. */
export async function fluxPage(cache: FleetCache, namespace: string) {
  const { fi, report } = byNamespace(cache).get(namespace) ?? {};
  if (!fi && !report) return undefined;
  const summary = fluxSummaries(cache).find((s) => s.namespace === namespace)!;
  const mapped = getCondition(fi?.status?.conditions, "DistributionMapped");
  const objects = [...(fi ? [{ kind: "FluxInstance", name: fi.metadata.name }] : [])];
  if (report) objects.push({ kind: "FluxReport", name: report.metadata.name });
  return {
    ...summary,
    instance: fi && {
      name: fi.metadata.name,
      distribution: fi.spec.distribution,
      components: (fi.status?.components ?? []).map((c) => ({ name: c.name, image: `${c.repository}:${c.tag}` })),
      requested: fi.spec.components ?? [],
      pullSecret: fi.spec.sync?.pullSecret ?? "",
      interval: fi.spec.sync?.interval ?? "",
      mapped: mapped ? { status: mapped.status, reason: mapped.reason, lines: mapped.message.split("\n") } : undefined,
      conditions: conditionRows(fi.status?.conditions),
      history: (fi.status?.history ?? []).map((h) => ({ ...h, metadata: h.metadata })),
      inventory: inventoryTree((fi.status?.inventory?.entries ?? []).map((e) => e.id)),
    },
    report: report && {
      distribution: report.spec.distribution,
      cluster: report.spec.cluster,
      operator: report.spec.operator,
      components: report.spec.components ?? [],
      reconcilers: (report.spec.reconcilers ?? []).map((r) => ({ kind: r.kind, apiVersion: r.apiVersion, ...r.stats })),
      sync: report.spec.sync && {
        ...report.spec.sync,
        source: report.spec.sync.source && shownUrl(report.spec.sync.source),
      },
      conditions: conditionRows(report.status?.conditions),
    },
    events: await eventsFor(cache, namespace, objects),
  };
}
