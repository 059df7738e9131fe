// A cluster's page: its card (health, version, last probe, counts) with every Kustomization, HelmRelease
// and fleet child that targets it, and the recent Events about it and about them.
import { clusterCards } from "./fleet-page.js";
import { type EventRow, eventsFor } from "./app-page.js";
import type { FleetCache, WatchedKind } from "../fleet/status/fleet-cache.js";
import { notificationsAboutAll } from "./notifications.js";

/** `scope`: the dashboard's one namespace, if it has one (where Alerts' Events are looked for). */
export async function clusterPage(cache: FleetCache, key: string, scope?: string) {
  const card = clusterCards(cache).find((c) => c.cluster === key);
  if (!card) return undefined;
  const byNamespace = new Map<string, { kind: string; name: string }[]>();
  const add = (ns: string, kind: string, name: string) =>
    byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), { kind, name }]);
  for (const a of card.apps) add(a.namespace, a.kind, a.name);
  // A Cluster object's own Events (probes) are about `<namespace>/<name>`.
  const [ns, name] = key.split("/");
  if (ns && name && !key.startsWith("secret/") && cache.get("Cluster", ns, name)) add(ns, "Cluster", name);
  const events: EventRow[] = [];
  for (const [namespace, objects] of byNamespace) events.push(...(await eventsFor(cache, namespace, objects)));
  events.sort((a, b) => b.last.localeCompare(a.last));
  const uids = card.apps
    .map((a) => cache.get(a.kind as WatchedKind, a.namespace, a.name)?.metadata.uid)
    .filter((u): u is string => u !== undefined);
  const notifications = await notificationsAboutAll(cache.client, [...new Set(uids)], scope);
  return { ...card, events: events.slice(0, 50), notifications };
}
