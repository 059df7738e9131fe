// The Cluster reconciler: reads the kubeconfig Secret (every time, so a rotated kubeconfig is used at
// once), probes the cluster, and writes what it saw — Ready, Kubernetes version, node count, last
// probe — then probes again after spec.interval. A Cluster discovered from a Kamaji
// TenantControlPlane is Ready only while that plane says it is Ready too — or WriteLimited: then it is
// reachable but not writable (condition Writable=False), and the fan-out holds its children (decision 0044). A failed probe is a Warning
// event (the cluster unreachable), the first good probe after it a Normal ClusterReachable.
import { CLUSTER_DEFAULT_INTERVAL, type FleetCluster } from "../../api/fleet/cluster.js";
import { FLEET_GROUP, SERVED_KINDS, USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import type { ReconcileContext, Request, Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { Condition } from "../../api/meta/conditions.js";
import { removeCondition, setCondition } from "../../runtime/conditions.js";
import { parseDuration } from "../../util/duration.js";
import { asFailure, ReconcileFailure } from "../../controllers/kit/failure.js";
import { ObjectReconciler } from "../../controllers/kit/object-reconciler.js";
import { ReconciledObjects } from "../../controllers/kit/objects.js";
import type { Success } from "../../controllers/kit/outcome.js";
import { targetCluster } from "../../controllers/kit/target-cluster.js";
import { tenantPlaneStatus, WRITE_LIMITED, writeLimitedMessage } from "../../controllers/kit/tenant-plane.js";
import { CLUSTER_WIDE, WRITABLE } from "../clusters.js";
import { type ProbeResult, probeCluster } from "./probe.js";

/** The TenantControlPlane a discovered Cluster stands for, from its controller owner reference. */
export function ownerTenantControlPlane(c: FleetCluster): string | undefined {
  return c.metadata.ownerReferences?.find((o) => o.kind === USED_KINDS.TenantControlPlane.kind && o.controller)?.name;
}

interface WriteLimit {
  limited: boolean;
  tcp: string;
}

/** The Writable condition of a Kamaji plane's Cluster; none for other clusters (writable as far as flotilla knows). */
function writable(conditions: Condition[], limit: WriteLimit | undefined): Condition[] {
  if (!limit) return removeCondition(conditions, WRITABLE);
  return setCondition(
    conditions,
    limit.limited
      ? {
          type: WRITABLE,
          status: "False",
          reason: WRITE_LIMITED,
          message: writeLimitedMessage(limit.tcp),
        }
      : {
          type: WRITABLE,
          status: "True",
          reason: "Writable",
          message: `TenantControlPlane ${limit.tcp} accepts writes`,
        },
  );
}

/** What a probe that was refused cluster-wide reads says: the identity's reach, not a failure. */
function clusterWide(conditions: Condition[], seen: ProbeResult): Condition[] {
  if (!seen.refused) return removeCondition(conditions, CLUSTER_WIDE);
  return setCondition(conditions, {
    type: CLUSTER_WIDE,
    status: "False",
    reason: "NamespaceScoped",
    message: `the kubeconfig's identity${seen.user ? ` '${seen.user}'` : ""} may not ${seen.refused} (a namespace-scoped kubeconfig): it serves objects in the namespaces its RBAC allows, cluster-scoped objects are refused`,
  });
}

const describe = (seen: ProbeResult) =>
  `Kubernetes ${seen.kubernetesVersion}, ` +
  (seen.nodeCount === undefined
    ? `nodes not visible to the kubeconfig's identity (may not ${seen.refused})`
    : `${seen.nodeCount} node${seen.nodeCount === 1 ? "" : "s"}`);

export class ClusterReconciler extends ObjectReconciler<FleetCluster> {
  constructor(
    private readonly cluster: Cluster,
    events: EventRecorder,
  ) {
    super(new ReconciledObjects(cluster), events);
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const path = pathOf(SERVED_KINDS.Cluster, req.namespace, req.name);
    const c = await this.objects.read(path, ctx.cached);
    if (!c || c.metadata.deletionTimestamp) return;
    if (c.spec.suspend) return this.finisher.suspended(c, path, ctx);
    const intervalMs = parseDuration(c.spec.interval ?? CLUSTER_DEFAULT_INTERVAL);
    const timing = { intervalMs, retryIntervalMs: intervalMs };
    let conditions = c.status?.conditions ?? [];
    const lastProbeTime = new Date().toISOString();
    try {
      conditions = writable(conditions, await this.tenantControlPlaneReady(c));
      const target = await targetCluster(
        this.cluster,
        { metadata: c.metadata, spec: { kubeConfig: c.spec.kubeConfig } },
        undefined,
      );
      const seen = await probeCluster(target);
      conditions = clusterWide(conditions, seen);
      const message = describe(seen);
      const outcome: Success = { reason: "ClusterReady", message };
      // Back after a failed probe: news (the failure was a Warning event each probe; decision 0046).
      const down = conditions.find((x) => x.type === "Ready" && x.status === "False");
      if (down)
        outcome.event = {
          reason: "ClusterReachable",
          message: `cluster ${c.metadata.name} reachable again (not Ready since ${down.lastTransitionTime}): ${message}`,
          annotations: { [`${FLEET_GROUP}/cluster`]: c.metadata.name },
        };
      const status = {
        kubernetesVersion: seen.kubernetesVersion,
        nodeCount: seen.nodeCount ?? null, // a count from an earlier, wider credential is not kept
        lastProbeTime,
      };
      return this.finisher.finish(c, path, ctx, { outcome, conditions, status, timing });
    } catch (err) {
      const outcome = asFailure(err, (m) => new ReconcileFailure("ProbeFailed", m));
      return this.finisher.finish(c, path, ctx, { outcome, conditions, status: { lastProbeTime }, timing });
    }
  }

  /**
   * A Kamaji plane that is not Ready makes its Cluster not Ready, whatever a probe would say. A
   * WriteLimited one is up (reads work) but refuses writes: the Cluster is told so, not failed.
   */
  private async tenantControlPlaneReady(c: FleetCluster): Promise<WriteLimit | undefined> {
    const tcp = ownerTenantControlPlane(c);
    if (!tcp) return undefined;
    let status: string | undefined;
    try {
      status = await tenantPlaneStatus(this.cluster, c.metadata.namespace!, tcp);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      throw new ReconcileFailure(
        "TenantControlPlaneNotFound",
        `TenantControlPlane ${c.metadata.namespace}/${tcp} is gone`,
      );
    }
    if (status === WRITE_LIMITED) return { limited: true, tcp: `${c.metadata.namespace}/${tcp}` };
    if (status !== "Ready")
      throw new ReconcileFailure(
        "TenantControlPlaneNotReady",
        `TenantControlPlane ${c.metadata.namespace}/${tcp} is not Ready (status.kubernetesResources.version.status: ${status ?? "unset"})`,
      );
    return { limited: false, tcp: `${c.metadata.namespace}/${tcp}` };
  }
}
