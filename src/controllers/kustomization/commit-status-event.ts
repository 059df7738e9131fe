// The event Flux's kustomize-controller records when a reconcile ends Ready — "Reconciliation finished
// in <d>, next run in <interval>" marked `kustomize.toolkit.fluxcd.io/commit_status: update` with the
// applied revision — which the forge providers (github, gitlab, gitea, bitbucket…) turn into a commit
// status. Flux records it after every successful reconcile; flotilla records it when it is news — a
// revision applied for the first time, or Ready again after a failure — since an Event is one API write
// and the forges drop a status identical to the last one anyway (decision 0037).
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import { KUSTOMIZE_GROUP } from "../../api/kinds.js";
import { formatDuration } from "../../util/duration.js";

/** Flux's revision annotation on every event of an attempt that got as far as a revision. */
export const revisionAnnotations = (revision: string | undefined): Record<string, string> | undefined =>
  revision ? { [`${KUSTOMIZE_GROUP}/revision`]: revision } : undefined;

export function commitStatusEvent(ks: Kustomization, revision: string | undefined, tookMs: number, intervalMs: number) {
  const wasReady = ks.status?.conditions?.find((c) => c.type === "Ready")?.status === "True";
  if (!revision || (wasReady && ks.status?.lastAppliedRevision === revision)) return undefined;
  return {
    reason: "ReconciliationSucceeded",
    message: `Reconciliation finished in ${formatDuration(tookMs)}, next run in ${formatDuration(intervalMs)}`,
    annotations: { [`${KUSTOMIZE_GROUP}/commit_status`]: "update" },
  };
}
