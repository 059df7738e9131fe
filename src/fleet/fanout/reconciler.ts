// The fan-out reconciler every fleet kind shares (FleetKustomization, FleetHelmRelease): every selected
// Cluster that is Ready gets its child (applied server-side, so a re-run changes nothing); a selected
// cluster that is not Ready keeps the child it has and gets nothing new; a cluster no longer selected
// keeps its child through a grace period said in status, then loses it as onClusterRemoval says
// (leaving.ts). A child name taken by an object the parent does not control is reported, never adopted
// (collision.ts). Status lists every selected cluster, none left out.
import type { FleetCluster } from "../../api/fleet/cluster.js";
import { SERVED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ReconcileContext, Request, Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import { ArtifactNotReadyError, type SourceFetcher, SourceNotFoundError } from "../../sources/consumer.js";
import { parseDuration } from "../../util/duration.js";
import { ReconcileFailure } from "../../controllers/kit/failure.js";
import { ObjectReconciler } from "../../controllers/kit/object-reconciler.js";
import { ReconciledObjects } from "../../controllers/kit/objects.js";
import { APPROVE_ANNOTATION } from "../../api/fleet/rollout.js";
import { conditionOf, isReady, isWritable, selects, WRITABLE } from "../clusters.js";
import { FleetError } from "../errors.js";
import { checkRollout, InvalidRollout, REVISION_ANNOTATION, stagedMembers } from "../rollout/members.js";
import { invalidRollout } from "./outcome.js";
import { haltStage, type Plan, planRollout } from "../rollout/plan.js";
import type { ChildKind, FleetChild, FleetParent } from "../children/child-kind.js";
import {
  CLUSTER_LABEL,
  childName,
  childStatus,
  childUnchanged,
  desiredChild,
  FLEET_FIELD_MANAGER,
  type Row,
} from "../children/children.js";
import { fanOutOutcome, waitingForStage } from "./outcome.js";
import { fleetEvents } from "./fleet-events.js";
import { crossNamespaceRead } from "./cross-namespace.js";
import { controlledBy, takenName } from "./collision.js";
import { DEFAULT_REMOVAL_GRACE_MS, removalCondition, removalPolicy, returned, settleLeaving } from "./leaving.js";
import { holdChild, releaseChild } from "./removal.js";

const RECHECK_MS = 15_000;

export class FanOutReconciler<P extends FleetParent> extends ObjectReconciler<P> {
  constructor(
    private readonly kind: ChildKind<P>,
    private readonly cluster: Cluster,
    private readonly events: EventRecorder,
    private readonly sourceFetcher?: SourceFetcher,
    private readonly removalGraceMs = DEFAULT_REMOVAL_GRACE_MS,
    /** --no-cross-namespace-refs */
    private readonly noCrossNamespaceRefs = false,
  ) {
    super(new ReconciledObjects(cluster), events);
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
    const denied = crossNamespaceRead(this.kind, parent, this.noCrossNamespaceRefs);
    if (denied) return this.finisher.finish(parent, path, ctx, { outcome: denied, conditions, timing });
    const all = (await this.cluster.client.listAll<FleetCluster>(pathOf(SERVED_KINDS.Cluster, req.namespace))).items;
    const clusters = all
      .filter((c) => selects(parent.spec.clusterSelector, c))
      .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    const listed = await this.cluster.client.listAll<FleetChild>(pathOf(this.kind.child, req.namespace), {
      labelSelector: `${this.kind.parentLabel}=${parent.metadata.name}`,
    });
    // Only what this parent controls is its child: a look-alike carrying its labels is never adopted or removed.
    const children = new Map(
      listed.items.filter((k) => controlledBy(parent, k)).map((k) => [k.metadata.labels?.[CLUSTER_LABEL] ?? "", k]),
    );
    let plan: Plan | undefined;
    if (parent.spec.rollout) {
      try {
        plan = await this.planRollout(parent, clusters, children);
      } catch (err) {
        if (!(err instanceof FleetError)) throw err;
        const outcome = invalidRollout(err, [...children.keys()], clusters);
        return this.finisher.finish(parent, path, ctx, { outcome, conditions, timing });
      }
    }
    const rows: Row[] = [];
    const inUse = new Set<string>();
    for (const c of clusters) {
      const name = c.metadata.name;
      const existing = await returned(this.cluster, this.kind, children.get(name));
      children.delete(name);
      const taken = !existing && (await takenName(this.cluster, this.kind, parent, name));
      if (taken) {
        rows.push(taken);
        continue;
      }
      const revision = plan && (plan.moves.get(name) ?? existing?.metadata.annotations?.[REVISION_ANNOTATION]);
      if (plan && !revision) {
        rows.push({ ...waitingForStage(plan, name), child: childName(parent, name) });
        continue;
      }
      const { row, child } = await this.syncChild(parent, c, existing, revision);
      const handle = child && this.kind.pins?.handleOf(child);
      if (handle) inUse.add(handle);
      rows.push(row);
      // A cluster its stage moved whose child cannot even be built halts the stage, naming it.
      if (plan?.moves.has(name) && row.state === "failing") haltStage(plan, name, row.message ?? "failing");
    }
    const gone = await settleLeaving(this.cluster, this.kind, parent, children, all, this.removalGraceMs, ctx);
    for (const child of gone.kept) {
      const handle = this.kind.pins?.handleOf(child);
      if (handle) inUse.add(handle);
    }
    // A rollout removed from the spec leaves no pins, tracking objects or stale stage records behind.
    if (this.kind.pins && (plan || parent.status?.rollout))
      await this.kind.pins.sweep(this.cluster.client, parent, inUse, !!plan);
    // Looked at again when the next grace period ends.
    const soonest = Math.min(timing.intervalMs, gone.recheckMs ?? Infinity);
    const { outcome, status } = fanOutOutcome(rows, plan, Math.min(RECHECK_MS, soonest));
    const pending = removalCondition(conditions, gone.leaving, removalPolicy(parent), parent.metadata.generation);
    const result = await this.finisher.finish(parent, path, ctx, {
      outcome,
      conditions: pending,
      status,
      timing: { intervalMs: soonest },
    });
    // After the status that shows them: what changed per cluster and per stage (decision 0046).
    for (const e of fleetEvents(parent.status, rows, plan?.status))
      await this.events.record(parent, e.type, e.reason, e.message, e.annotations);
    return result;
  }

  private sources(): SourceFetcher {
    if (!this.sourceFetcher)
      throw new FleetError(`the ${this.kind.parent.kind} controller was started without source access`);
    return this.sourceFetcher;
  }

  /** Where each cluster stands in the staged rollout, and which move now. */
  private async planRollout(parent: P, clusters: FleetCluster[], children: Map<string, FleetChild>): Promise<Plan> {
    const rollout = parent.spec.rollout!;
    const pins = this.kind.pins;
    if (!pins) throw new InvalidRollout(`spec.rollout is not supported on ${this.kind.parent.kind} yet: remove it`);
    checkRollout(rollout);
    return planRollout({
      stages: stagedMembers(this.kind, rollout, clusters, children),
      live: await pins.live(this.cluster.client, parent),
      previous: parent.status?.rollout,
      approved: parent.metadata.annotations?.[APPROVE_ANNOTATION],
      now: new Date(),
      approveHint: `flotilla approve ${this.kind.parent.kind.toLowerCase()} ${parent.metadata.name} -n ${parent.metadata.namespace}`,
    });
  }

  /** A Ready cluster's child applied as the template says (at its rollout revision); a cluster not Ready keeps what it has. */
  private async syncChild(
    parent: P,
    c: FleetCluster,
    existing: FleetChild | undefined,
    revision: string | undefined,
  ): Promise<{ row: Row; child?: FleetChild }> {
    const name = c.metadata.name;
    // A cluster not Ready, or up but refusing writes (a WriteLimited Kamaji plane), gets nothing new.
    const blocked = !isReady(c)
      ? { what: "not Ready", why: conditionOf(c, "Ready")?.message ?? "not probed yet" }
      : !isWritable(c)
        ? { what: "not writable", why: conditionOf(c, WRITABLE)?.message ?? "" }
        : undefined;
    if (blocked) {
      const row = childStatus(this.kind, name, childName(parent, name), existing);
      if (!existing)
        return {
          row: { ...row, ready: "Unknown", message: `cluster ${blocked.what}: ${blocked.why}`, state: "waiting" },
        };
      // Held, not removed: suspended, it applies nothing and prunes nothing until the cluster is back.
      const held = await holdChild(this.cluster, this.kind, existing);
      return {
        row: {
          ...row,
          ready: "False",
          message: `cluster ${name} ${blocked.what}: ${blocked.why} (child held)`,
          state: "waiting",
        },
        child: held,
      };
    }
    try {
      existing = await releaseChild(this.cluster, this.kind, existing);
      // Pinned first: the fallback path is judged on the pinned revision's files.
      const handle = revision && (await this.kind.pins!.pin(this.cluster.client, parent, revision));
      const files = this.kind.filesFor && (await this.kind.filesFor(() => this.sources(), parent, revision));
      const desired = desiredChild(this.kind, parent, c, files);
      if (revision && handle) {
        desired.spec = this.kind.pins!.pinnedSpec(desired.spec, handle);
        desired.metadata.annotations = { ...desired.metadata.annotations, [REVISION_ANNOTATION]: revision };
      }
      const applied = childUnchanged(desired, existing)
        ? existing!
        : await this.cluster.client.apply<FleetChild>(
            pathOf(this.kind.child, parent.metadata.namespace, desired.metadata.name),
            desired,
            FLEET_FIELD_MANAGER,
            { force: true },
          );
      return { row: childStatus(this.kind, name, desired.metadata.name, applied), child: applied };
    } catch (err) {
      const row: Row = {
        cluster: name,
        child: childName(parent, name),
        ready: "False",
        message: (err as Error).message,
        // A source or artifact not there yet (a pinned copy being fetched) is a wait, not a failure.
        state: err instanceof ArtifactNotReadyError || err instanceof SourceNotFoundError ? "waiting" : "failing",
      };
      return existing ? { row, child: existing } : { row };
    }
  }
}
