// The FleetKustomization reconciler: every selected Cluster that is Ready gets its child Kustomization
// (applied server-side, so a re-run changes nothing); a selected cluster that is not Ready keeps the
// child it has and gets nothing new; a cluster no longer selected loses its child — and, through the
// child's own deletion, what it applied there (onClusterRemoval: Prune), or keeps it (Orphan). Status
// lists every selected cluster, none left out.
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { ClusterChildStatus, FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import { SERVED_KINDS } from "../../api/kinds.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
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
import { type ChildState, childName, childStatus, desiredChild, PARENT_LABEL, CLUSTER_LABEL } from "./children.js";

export const FLEET_FIELD_MANAGER = "flotilla-fleet";
const RECHECK_MS = 15_000;

export class FleetKustomizationReconciler implements Reconciler {
  private readonly objects: ReconciledObjects<FleetKustomization>;
  private readonly finisher: Finisher<FleetKustomization>;

  constructor(
    private readonly cluster: Cluster,
    events: EventRecorder,
  ) {
    this.objects = new ReconciledObjects(cluster);
    this.finisher = new Finisher(this.objects, events);
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const path = pathOf(SERVED_KINDS.FleetKustomization, req.namespace, req.name);
    const fk = await this.objects.read(path, ctx.cached);
    if (!fk || fk.metadata.deletionTimestamp) return; // children go with it (owner references)
    if (fk.spec.suspend) return this.finisher.suspended(fk, path, ctx);
    const timing = { intervalMs: parseDuration(fk.spec.template.spec.interval ?? "10m") };
    const conditions = fk.status?.conditions ?? [];
    if (fk.spec.template.spec.kubeConfig) {
      const outcome = new ReconcileFailure(
        "InvalidTemplate",
        "spec.template.spec.kubeConfig is set by the fleet from each Cluster: remove it from the template",
        { stalled: true },
      );
      return this.finisher.finish(fk, path, ctx, { outcome, conditions, timing });
    }
    const ks = SERVED_KINDS.Kustomization;
    const clusters = (
      await this.cluster.client.listAll<FleetCluster>(pathOf(SERVED_KINDS.Cluster, req.namespace))
    ).items
      .filter((c) => selects(fk.spec.clusterSelector, c))
      .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    const children = new Map(
      (
        await this.cluster.client.listAll<Kustomization>(pathOf(ks, req.namespace), {
          labelSelector: `${PARENT_LABEL}=${fk.metadata.name}`,
        })
      ).items.map((k) => [k.metadata.labels?.[CLUSTER_LABEL] ?? "", k]),
    );
    const rows: (ClusterChildStatus & { state: ChildState })[] = [];
    for (const c of clusters) {
      const name = c.metadata.name;
      let child = children.get(name);
      children.delete(name);
      if (!isReady(c)) {
        const why = c.status?.conditions?.find((x) => x.type === "Ready")?.message ?? "not probed yet";
        const row = childStatus(name, childName(fk, name), child);
        rows.push(
          child
            ? row
            : {
                ...row,
                ready: "Unknown" as const,
                message: `cluster not Ready: ${why}`,
                state: "waiting" as ChildState,
              },
        );
        continue;
      }
      try {
        const desired = desiredChild(fk, c);
        child = await this.cluster.client.apply<Kustomization>(
          pathOf(ks, req.namespace, desired.metadata.name),
          desired,
          FLEET_FIELD_MANAGER,
          { force: true },
        );
        rows.push(childStatus(name, desired.metadata.name, child));
      } catch (err) {
        rows.push({
          cluster: name,
          child: childName(fk, name),
          ready: "False" as const,
          message: (err as Error).message,
          state: "failing" as ChildState,
        });
      }
    }
    for (const [cluster, child] of children) await this.removeChild(fk, child, cluster, ctx);
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
    return this.finisher.finish(fk, path, ctx, { outcome, conditions, status, timing });
  }

  /** A cluster no longer selected: its child goes, pruning what it applied unless the parent says Orphan. */
  private async removeChild(fk: FleetKustomization, child: Kustomization, cluster: string, ctx: ReconcileContext) {
    const path = pathOf(SERVED_KINDS.Kustomization, child.metadata.namespace, child.metadata.name);
    try {
      if (fk.spec.onClusterRemoval === "Orphan")
        await this.cluster.client.patch(path, "merge", { spec: { deletionPolicy: "Orphan" } });
      await this.cluster.client.delete(path);
      ctx.log.info("cluster no longer selected: child removed", {
        cluster,
        child: child.metadata.name,
        policy: fk.spec.onClusterRemoval ?? "Prune",
      });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
}
