// status.history as Flux (fluxcd/pkg meta.History) and the Flux Operator (api/v1 History.Upsert) keep
// it: newest first, at most five snapshots, one per (digest, outcome). A repeat of an earlier pair
// updates that snapshot (last time, duration, count, metadata) and moves it to the front rather than
// adding a duplicate. Each kind prints the duration its own way, so the formatter is the caller's.
import type { Snapshot } from "../../api/meta/history.js";

export const HISTORY_MAX_SIZE = 5;

const timestamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

export interface HistoryEntry {
  digest: string;
  /** The outcome: the Ready condition's reason. */
  status: string;
  at: Date;
  durationMs: number;
  metadata?: Record<string, string>;
}

export function upsertSnapshot(
  history: Snapshot[] | undefined,
  entry: HistoryEntry,
  formatDuration: (ms: number) => string,
): Snapshot[] {
  const list = [...(history ?? [])];
  const index = list.findIndex((s) => s.digest === entry.digest && s.lastReconciledStatus === entry.status);
  const now = timestamp(entry.at);
  const previous = index >= 0 ? list.splice(index, 1)[0] : undefined;
  const snapshot: Snapshot = {
    digest: entry.digest,
    firstReconciled: previous?.firstReconciled ?? now,
    lastReconciled: now,
    lastReconciledDuration: formatDuration(entry.durationMs),
    lastReconciledStatus: entry.status,
    totalReconciliations: (previous?.totalReconciliations ?? 0) + 1,
    ...(entry.metadata ? { metadata: entry.metadata } : {}),
  };
  return [snapshot, ...list].slice(0, HISTORY_MAX_SIZE);
}
