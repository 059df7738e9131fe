// Status conditions as Flux's API defines them (fluxcd/pkg/apis/meta): the Condition shape, the
// condition types every Flux object carries, and Flux's common reasons. How conditions are set
// and summarised is the runtime's business (runtime/conditions.ts).

export interface Condition {
  type: string;
  status: "True" | "False" | "Unknown";
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime: string;
}

export const READY = "Ready";
export const RECONCILING = "Reconciling";
export const STALLED = "Stalled";

/** Flux's common reasons. */
export const REASONS = {
  succeeded: "Succeeded",
  failed: "Failed",
  progressing: "Progressing",
  suspended: "Suspended",
  dependencyNotReady: "DependencyNotReady",
} as const;
