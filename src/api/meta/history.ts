// One entry of status.history (fluxcd/pkg meta.Snapshot): what was reconciled (a digest), with
// which outcome, when first and last, and how often.
export interface Snapshot {
  digest: string;
  firstReconciled: string;
  lastReconciled: string;
  lastReconciledDuration: string;
  lastReconciledStatus: string;
  totalReconciliations: number;
  metadata?: Record<string, string>;
}
