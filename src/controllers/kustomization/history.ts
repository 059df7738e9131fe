// A Kustomization's status.history as Flux keeps it (kit/history.ts: newest first, five snapshots, one
// per (digest of the applied set, outcome)), with durations printed as metav1.Duration prints them.
import type { Snapshot } from "../../api/meta/history.js";
import { type HistoryEntry, upsertSnapshot } from "../kit/history.js";

export { HISTORY_MAX_SIZE } from "../kit/history.js";

/** Go's metav1.Duration text for what a reconcile takes (e.g. "1.52s", "2m3.1s"). */
export function goDuration(ms: number): string {
  if (ms < 1) return "0s";
  if (ms < 1000) return `${Number(ms.toFixed(3))}ms`;
  const totalSeconds = ms / 1000;
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = Number((totalSeconds % 60).toFixed(3));
  return `${h ? `${h}h` : ""}${h || m ? `${m}m` : ""}${s}s`;
}

export function upsertHistory(history: Snapshot[] | undefined, entry: HistoryEntry): Snapshot[] {
  return upsertSnapshot(history, entry, goDuration);
}
