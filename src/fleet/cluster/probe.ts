// A probe of one fleet cluster: reachable (GET /version), authenticated (a SelfSubjectReview, which
// every authenticated identity may create: system:basic-user), and its size (nodes). A kubeconfig bound
// to some namespaces (Kamaji's KubeconfigGenerator kind) may not list nodes: the cluster is still
// reachable and usable there, so the probe says what the identity may not do instead of failing
// (decision 0044). Bounded: a cluster that does not answer costs one timeout, never a hung reconcile.
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { ConnectionError, ForbiddenError, NotFoundError, UnauthorizedError } from "../../kube/errors.js";
import { ReconcileFailure } from "../../controllers/kit/failure.js";

export const PROBE_TIMEOUT_MS = 10_000;

export interface ProbeResult {
  kubernetesVersion: string;
  /** Unset when the identity may not list nodes. */
  nodeCount?: number;
  /** The kubeconfig's user, as the cluster authenticated it (unset before Kubernetes 1.28: no SelfSubjectReview). */
  user?: string;
  /** What the identity was refused (a namespace-scoped kubeconfig): "list nodes". */
  refused?: string;
}

type NodeList = { items?: unknown[]; metadata?: { remainingItemCount?: number } };

export async function probeCluster(target: Cluster): Promise<ProbeResult> {
  try {
    const version = await target.client.request<{ gitVersion?: string }>("GET", "/version", {
      timeoutMs: PROBE_TIMEOUT_MS,
    });
    const user = await whoAmI(target);
    const seen: ProbeResult = { kubernetesVersion: version.gitVersion ?? "unknown", user };
    try {
      const nodes = await target.client.request<NodeList>("GET", pathOf(USED_KINDS.Node), {
        query: { limit: 500 },
        timeoutMs: PROBE_TIMEOUT_MS,
      });
      seen.nodeCount = (nodes.items?.length ?? 0) + (nodes.metadata?.remainingItemCount ?? 0);
    } catch (err) {
      // Authenticated (else a 401) but not allowed cluster-wide: a scoped kubeconfig, not a failure.
      if (!(err instanceof ForbiddenError)) throw err;
      seen.refused = "list nodes";
    }
    return seen;
  } catch (err) {
    const message = (err as Error).message;
    if (err instanceof UnauthorizedError)
      throw new ReconcileFailure(
        "AuthenticationFailed",
        `the cluster refused the kubeconfig's credentials: ${message}`,
      );
    if (err instanceof ConnectionError || /timeout|ECONNREFUSED|ECONNRESET|socket/i.test(message))
      throw new ReconcileFailure("ClusterUnreachable", `the cluster does not answer: ${message}`);
    throw new ReconcileFailure("ProbeFailed", message);
  }
}

/** The authenticated user's name; a 401 here means the credentials are refused (/version may be public). */
async function whoAmI(target: Cluster): Promise<string | undefined> {
  try {
    const review = await target.client.request<{ status?: { userInfo?: { username?: string } } }>(
      "POST",
      "/apis/authentication.k8s.io/v1/selfsubjectreviews",
      {
        body: { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" },
        timeoutMs: PROBE_TIMEOUT_MS,
      },
    );
    return review.status?.userInfo?.username;
  } catch (err) {
    // Before 1.28, or system:basic-user taken away: the node list still tells a refused credential (401).
    if (err instanceof NotFoundError || err instanceof ForbiddenError) return undefined;
    throw err;
  }
}
