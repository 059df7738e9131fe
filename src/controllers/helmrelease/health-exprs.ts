// spec.healthCheckExprs of a HelmRelease, helm-controller's way (decision 0047): compiled at the start of
// the reconcile (a bad expression stalls it, InvalidCELExpression), then used by the poller's wait for
// the release's objects after install, upgrade and rollback. The wait itself runs in the resident helm
// engine's `--wait=flotilla` callback, judged by the Kustomization's CEL engine (ssa/health): kstatus
// for every object, the expressions for the kinds they name; the first Failed object fails the action.
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import type { EngineWait } from "../../binaries/helm/index.js";
import type { Cluster } from "../../kube/cluster.js";
import { type ExpressionHealth, waitForSet } from "../../ssa/index.js";
import { compileHealthChecksOrStall } from "../kit/health-expressions.js";

/** The expressions only the poller reads: none under `legacy` (helm's own wait), as in helm-controller. */
export function pollerExpressions(hr: HelmRelease): ExpressionHealth | undefined {
  if (hr.spec.waitStrategy?.name === "legacy") return undefined;
  return compileHealthChecksOrStall(hr.spec.healthCheckExprs);
}

/** How often the wait reads the objects again (kustomize-controller's and helm-controller's is 5 s). */
const POLL_MS = 2000;

/**
 * The engine's wait callback for one action: helm-controller's WaitForSet with fail-fast — every object
 * Current, or the first Failed one (an expression's `failed`) ends it at once — within helm's timeout.
 */
export const pollerWait =
  (target: Cluster, expressions: ExpressionHealth | undefined) =>
  (w: EngineWait, signal: AbortSignal): Promise<void> =>
    waitForSet(
      target,
      w.objects.map((o) => ({
        apiVersion: o.apiVersion,
        kind: o.kind,
        metadata: { name: o.name, namespace: o.namespace || undefined },
      })),
      {
        timeoutMs: w.timeoutMs,
        intervalMs: POLL_MS,
        failFast: true,
        // A release's objects are read again when they change (one watch per kind and namespace, shared).
        watchChanges: true,
        expressions,
        signal,
        jobsWithTtl: new Set(w.objects.filter((o) => o.ttlAfterFinished).map((o) => `${o.namespace ?? ""}/${o.name}`)),
      },
    );
