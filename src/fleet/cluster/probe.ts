// A probe of one fleet cluster: reachable and authenticated (GET /version), and its size (nodes).
// Bounded: a cluster that does not answer costs one timeout, never a hung reconcile.
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { ConnectionError, ForbiddenError, UnauthorizedError } from "../../kube/errors.js";
import { ReconcileFailure } from "../../controllers/kit/failure.js";

export const PROBE_TIMEOUT_MS = 10_000;

export interface ProbeResult {
  kubernetesVersion: string;
  nodeCount: number;
}

export async function probeCluster(target: Cluster): Promise<ProbeResult> {
  try {
    const version = await target.client.request<{ gitVersion?: string }>("GET", "/version", {
      timeoutMs: PROBE_TIMEOUT_MS,
    });
    const nodes = await target.client.request<{ items?: unknown[]; metadata?: { remainingItemCount?: number } }>(
      "GET",
      pathOf(USED_KINDS.Node),
      { query: { limit: 500 }, timeoutMs: PROBE_TIMEOUT_MS },
    );
    return {
      kubernetesVersion: version.gitVersion ?? "unknown",
      nodeCount: (nodes.items?.length ?? 0) + (nodes.metadata?.remainingItemCount ?? 0),
    };
  } catch (err) {
    const message = (err as Error).message;
    if (err instanceof UnauthorizedError)
      throw new ReconcileFailure(
        "AuthenticationFailed",
        `the cluster refused the kubeconfig's credentials: ${message}`,
      );
    if (err instanceof ForbiddenError)
      throw new ReconcileFailure("AuthorizationFailed", `the kubeconfig's identity may not list nodes: ${message}`);
    if (err instanceof ConnectionError || /timeout|ECONNREFUSED|ECONNRESET|socket/i.test(message))
      throw new ReconcileFailure("ClusterUnreachable", `the cluster does not answer: ${message}`);
    throw new ReconcileFailure("ProbeFailed", message);
  }
}
