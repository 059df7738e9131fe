// status.history as Flux keeps it (fluxcd/pkg meta.History): newest first, at most five snapshots,
// one per (digest of the applied set, outcome). A repeat of an earlier pair updates that snapshot
// and moves it to the front rather than adding a duplicate.
import type { Snapshot } from "../../api/meta/history.js";

export const HISTORY_MAX_SIZE = 5;

const timestamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

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

export function upsertHistory(
  history: Snapshot[] | undefined,
  entry: { digest: string; status: string; at: Date; durationMs: number; metadata?: Record<string, string> },
): Snapshot[] {
  const list = [...(history ?? [])];
  const index = list.findIndex((s) => s.digest === entry.digest && s.lastReconciledStatus === entry.status);
  const now = timestamp(entry.at);
  const previous = index >= 0 ? list.splice(index, 1)[0] : undefined;
  const snapshot: Snapshot = {
    digest: entry.digest,
    firstReconciled: previous?.firstReconciled ?? now,
    lastReconciled: now,
    lastReconciledDuration: goDuration(entry.durationMs),
    lastReconciledStatus: entry.status,
    totalReconciliations: (previous?.totalReconciliations ?? 0) + 1,
    ...(entry.metadata ? { metadata: entry.metadata } : {}),
  };
  return [snapshot, ...list].slice(0, HISTORY_MAX_SIZE);
}
