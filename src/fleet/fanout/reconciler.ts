// The fan-out reconciler every fleet kind shares (FleetKustomization, FleetHelmRelease): every selected
// Cluster that is Ready gets its child (applied server-side, so a re-run changes nothing); a selected
// cluster that is not Ready keeps the child it has and gets nothing new; a cluster no longer selected
// loses its child — and, through the child's own deletion, what it applied there (onClusterRemoval:
// Prune), or keeps it (Orphan). Status lists every selected cluster, none left out.
import type { FleetCluster } from "../../api/fleet/cluster.js";
import { SERVED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import type { ReconcileContext, Reconciler, Request, Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import { parseDuration } from "../../util/duration.js";
import { ReconcileFailure } from "../../controllers/kit/failure.js";
import { Finisher } from "../../controllers/kit/finish.js";
import { ReconciledObjects } from "../../controllers/kit/objects.js";
import { isReady, selects } from "../clusters.js";
import type { ChildKind, FleetChild, FleetParent } from "./child-kind.js";
import { CLUSTER_LABEL, type ChildState, childName, childStatus, desiredChild, type Row } from "./children.js";

export const FLEET_FIELD_MANAGER = "flotilla-fleet";
const RECHECK_MS = 15_000;

export class FanOutReconciler<P extends FleetParent> implements Reconciler {
  private readonly objects: ReconciledObjects<P>;
  private readonly finisher: Finisher<P>;

  constructor(
    private readonly kind: ChildKind<P>,
    private readonly cluster: Cluster,
    events: EventRecorder,
  ) {
    this.objects = new ReconciledObjects(cluster);
    this.finisher = new Finisher(this.objects, events);
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const path = pathOf(this.kind.parent, req.namespace, req.name);
    const parent = await this.objects.read(path, ctx.cached);
    if (!parent || parent.metadata.deletionTimestamp) return; // children go with it (owner references)
    if (parent.spec.suspend) return this.finisher.suspended(parent, path, ctx);
    const timing = { intervalMs: parseDuration(parent.spec.template.spec.interval ?? "10m") };
    const conditions = parent.status?.conditions ?? [];
    if (parent.spec.template.spec.kubeConfig) {
      const outcome = new ReconcileFailure(
        "InvalidTemplate",
        "spec.template.spec.kubeConfig is set by the fleet from each Cluster: remove it from the template",
        { stalled: true },
      );
      return this.finisher.finish(parent, path, ctx, { outcome, conditions, timing });
    }
    const clusters = (
      await this.cluster.client.listAll<FleetCluster>(pathOf(SERVED_KINDS.Cluster, req.namespace))
    ).items
      .filter((c) => selects(parent.spec.clusterSelector, c))
      .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    const listed = await this.cluster.client.listAll<FleetChild>(pathOf(this.kind.child, req.namespace), {
      labelSelector: `${this.kind.parentLabel}=${parent.metadata.name}`,
    });
    const children = new Map(listed.items.map((k) => [k.metadata.labels?.[CLUSTER_LABEL] ?? "", k]));
    const rows: Row[] = [];
    for (const c of clusters) {
      const name = c.metadata.name;
      const existing = children.get(name);
      children.delete(name);
      rows.push(await this.syncChild(parent, c, existing));
    }
    for (const [cluster, child] of children) await this.removeChild(parent, child, cluster, ctx);
    const count = (s: ChildState) => rows.filter((r) => r.state === s).length;
    const counts = {
      total: rows.length,
      ready: count("ready"),
      failing: count("failing"),
      progressing: count("progressing"),
      waiting: count("waiting"),
    };
    const status = { counts, clusters: rows.map(({ state: _s, ...r }) => r) };
    const notReady = rows.filter((r) => r.state !== "ready");
    const summary = `${counts.ready}/${counts.total} clusters ready`;
    const outcome = notReady.length
      ? new ReconcileFailure(
          counts.failing ? "ClustersFailing" : "ClustersProgressing",
          `${summary}; ${notReady.map((r) => `${r.cluster}: ${r.message ?? r.ready}`).join("; ")}`,
          { retryAfterMs: Math.min(RECHECK_MS, timing.intervalMs) },
        )
      : { reason: "ReconciliationSucceeded", message: summary };
    return this.finisher.finish(parent, path, ctx, { outcome, conditions, status, timing });
  }

  /** A Ready cluster's child applied as the template says; a cluster not Ready keeps what it has. */
  private async syncChild(parent: P, c: FleetCluster, existing: FleetChild | undefined): Promise<Row> {
    const name = c.metadata.name;
    if (!isReady(c)) {
      const why = c.status?.conditions?.find((x) => x.type === "Ready")?.message ?? "not probed yet";
      const row = childStatus(this.kind, name, childName(parent, name), existing);
      return existing ? row : { ...row, ready: "Unknown", message: `cluster not Ready: ${why}`, state: "waiting" };
    }
    try {
      const desired = desiredChild(this.kind, parent, c);
      const applied = await this.cluster.client.apply<FleetChild>(
        pathOf(this.kind.child, parent.metadata.namespace, desired.metadata.name),
        desired,
        FLEET_FIELD_MANAGER,
        { force: true },
      );
      return childStatus(this.kind, name, desired.metadata.name, applied);
    } catch (err) {
      return {
        cluster: name,
        child: childName(parent, name),
        ready: "False",
        message: (err as Error).message,
        state: "failing",
      };
    }
  }

  /** A cluster no longer selected: its child goes, pruning what it applied unless the parent says Orphan. */
  private async removeChild(parent: P, child: FleetChild, cluster: string, ctx: ReconcileContext) {
    const path = pathOf(this.kind.child, child.metadata.namespace, child.metadata.name);
    try {
      if (parent.spec.onClusterRemoval === "Orphan")
        await this.cluster.client.patch(path, "merge", this.kind.orphanPatch);
      await this.cluster.client.delete(path);
      ctx.log.info("cluster no longer selected: child removed", {
        cluster,
        child: child.metadata.name,
        policy: parent.spec.onClusterRemoval ?? "Prune",
      });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
}
