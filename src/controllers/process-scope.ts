// Which controllers a process runs, and with which label selector. Flux shards only its source,
// kustomize and helm controllers: notification-controller (Alerts, Providers, Receivers) and the Flux
// Operator (FluxInstance, FluxReport) run once per cluster, unsharded. So in flotilla the main process
// of a sharded install takes those kinds whatever their shard key (its !<key> is dropped for them), and a
// shard — a process posting its events elsewhere (--events-addr=<URL>, as Flux's shard controllers do) —
// does not run them at all: one FluxReport (created unlabelled at start, as the operator's initReport
// does), one writer for it, the main process.
import type { GroupVersionKind } from "../api/meta/object.js";
import { unshardedSelector } from "./kit/label-selector.js";

/** The kinds Flux runs once per cluster, never sharded. */
export const UNSHARDED_KINDS: ReadonlySet<string> = new Set([
  "Alert",
  "Provider",
  "Receiver",
  "FluxInstance",
  "FluxReport",
]);

export interface ProcessRole {
  /** --watch-label-selector. */
  watchLabelSelector?: string;
  /** --events-addr=<URL>: this process is a shard (or a Flux controller set beside Flux's own notification-controller). */
  eventsForwardUrl?: string;
}

/** The selector a kind's controller runs with in this process, or null when the process does not run it. */
export function selectorFor(kind: GroupVersionKind, role: ProcessRole): string | undefined | null {
  if (!UNSHARDED_KINDS.has(kind.kind)) return role.watchLabelSelector;
  if (role.eventsForwardUrl) return null;
  return unshardedSelector(role.watchLabelSelector);
}
