// The FluxInstance reconciler (the operator's internal/controller/fluxinstance_controller.go, with
// flotilla as the distribution, decision 0043): finalizer fluxcd.controlplane.io/finalizer; one instance
// per cluster, named flux, in the namespace the controller runs in; reconcile: disabled leaves it alone.
// Then the fields are mapped onto the running process (mapping.ts; a lockdown asked for but not in
// effect stops the sync), spec.sync's source and Kustomization are applied as field manager flux-operator
// with the owner labels fluxcd.controlplane.io/{name,namespace}, what the inventory no longer lists is
// deleted (sync removed: the root Kustomization goes, and with it what it applied, as with the operator),
// spec.wait waits for them to be Ready, and the status is written as the operator writes it.
import { createHash } from "node:crypto";
import { SERVED_KINDS } from "../../api/kinds.js";
import type { Condition } from "../../api/meta/conditions.js";
import { REQUESTED_AT_ANNOTATION } from "../../api/meta/annotations.js";
import { pathOf } from "../../api/paths.js";
import { type FluxInstance, INSTANCE_NAME } from "../../api/operator/fluxinstance.js";
import { OPERATOR_FINALIZER } from "../../api/operator/resourceset.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ReconcileContext, Request, Result } from "../../runtime/controller.js";
import { setCondition } from "../../runtime/conditions.js";
import type { EventRecorder } from "../../runtime/events.js";
import {
  formatChangeSet,
  hasChanged,
  inventoryFromChangeSet,
  pruneStale,
  ResourceManager,
  waitForSet,
} from "../../ssa/index.js";
import { asFailure, ReconcileFailure } from "../kit/failure.js";
import { ObjectReconciler } from "../kit/object-reconciler.js";
import { ReconciledObjects } from "../kit/objects.js";
import { type Outcome, progressing } from "../kit/outcome.js";
import type { ControllerFlags } from "../kit/setup.js";
import { UNSUPPORTED_FIELD } from "../kit/unsupported.js";
import { instanceHistory } from "./history.js";
import { refusal } from "./refusal.js";
import { ownerOf, uninstall } from "./uninstall.js";
import { componentImages, runningImage } from "./components.js";
import { FLUX_API_VERSION, mapInstance } from "./mapping.js";
import { shardDeployments } from "./sharding.js";
import { annotatedMs, goDuration, isDisabled } from "../kit/operator-annotations.js";
import { syncObjects } from "./sync-objects.js";

export const OPERATOR_FIELD_MANAGER = "flux-operator";
/** flotilla's condition stating what each field maps to (the operator has no such condition: it deploys Flux). */
export const DISTRIBUTION_CONDITION = "DistributionMapped";
/** The service account `flotilla install` binds to cluster-admin: the multitenant root sync runs as it. */
export const CONTROLLER_SERVICE_ACCOUNT = "flotilla-controller";

const path = (ns: string, name: string) => pathOf(SERVED_KINDS.FluxInstance, ns, name);

export class FluxInstanceReconciler extends ObjectReconciler<FluxInstance> {
  constructor(
    private readonly cluster: Cluster,
    private readonly events: EventRecorder,
    private readonly flags: ControllerFlags,
  ) {
    super(new ReconciledObjects(cluster), events);
  }

  private async setFinalizers(fi: FluxInstance, p: string, finalizers: string[]): Promise<FluxInstance> {
    return this.cluster.client.patch<FluxInstance>(p, "merge", {
      metadata: { finalizers, resourceVersion: fi.metadata.resourceVersion },
    });
  }

  /** As the operator's reporter.RequestReportUpdate: the FluxReport is recomputed at once. */
  private async requestReport(namespace: string): Promise<void> {
    const at = String(Math.floor(Date.now() / 1000));
    await this.cluster.client
      .patch(pathOf(SERVED_KINDS.FluxReport, namespace, INSTANCE_NAME), "merge", {
        metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } },
      })
      .catch(() => undefined); // no report yet: nothing to refresh
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const p = path(req.namespace, req.name);
    const found = await this.objects.read(p, ctx.cached);
    if (!found) return;
    const finalizers = found.metadata.finalizers ?? [];
    if (found.metadata.deletionTimestamp) {
      if (!finalizers.includes(OPERATOR_FINALIZER)) return;
      if (!isDisabled(found)) await uninstall(this.cluster, found);
      await this.setFinalizers(
        found,
        p,
        finalizers.filter((f) => f !== OPERATOR_FINALIZER),
      );
      await this.requestReport(found.metadata.namespace!);
      return;
    }
    const refused = refusal(found, this.flags.runtimeNamespace);
    if (refused)
      return this.finisher.finish(found, p, ctx, {
        outcome: refused,
        conditions: found.status?.conditions ?? [],
        // The operator never reconciles an instance of another name or namespace; a Bucket sync is its build failure.
        ...(refused.reason === UNSUPPORTED_FIELD
          ? {
              status: {
                history: instanceHistory(found, { reason: refused.reason, startedMs: Date.now(), at: new Date() }),
              },
            }
          : {}),
        timing: { intervalMs: 0 },
      });
    const fi = finalizers.includes(OPERATOR_FINALIZER)
      ? found
      : await this.setFinalizers(found, p, [...finalizers, OPERATOR_FINALIZER]);
    if (isDisabled(fi)) {
      await this.events.record(fi, "Warning", "ReconciliationDisabled", "Reconciliation is disabled");
      return;
    }
    const started = Date.now();
    // spec.sharding is compared with the shard Deployments that run beside this process.
    const facts = fi.spec.sharding
      ? { ...this.flags, shardDeployments: await shardDeployments(this.cluster, fi.metadata.namespace!) }
      : this.flags;
    const mapping = mapInstance(fi.spec, facts);
    const conditions: Condition[] = setCondition(fi.status?.conditions ?? [], {
      type: DISTRIBUTION_CONDITION,
      status: mapping.blocked || mapping.pending ? "False" : "True",
      reason: mapping.blocked ? "RestartRequired" : mapping.pending ? "ShardsNotDeployed" : "Mapped",
      message: [mapping.blocked, ...mapping.statements].filter(Boolean).join("\n"),
      observedGeneration: fi.metadata.generation,
    });
    let outcome: Outcome;
    let status: { lastAttemptedRevision?: string } & Record<string, unknown> = {};
    try {
      if (mapping.blocked) throw new ReconcileFailure("MultitenancyNotEnforced", mapping.blocked, { stalled: true });
      ({ outcome, status } = await this.attempt(fi, p, started, conditions));
    } catch (err) {
      outcome = asFailure(err, (m) => new ReconcileFailure("ReconciliationFailed", `reconciliation failed: ${m}`));
    }
    const history = instanceHistory(fi, {
      reason: outcome.reason,
      revision: status.lastAttemptedRevision,
      startedMs: started,
      at: new Date(),
    });
    const result = await this.finisher.finish(fi, p, ctx, {
      outcome,
      conditions,
      status: { ...status, history },
      timing: { intervalMs: annotatedMs(fi, "reconcileEvery", 60 * 60_000) },
    });
    await this.requestReport(fi.metadata.namespace!);
    return result;
  }

  private async attempt(
    fi: FluxInstance,
    p: string,
    started: number,
    conditions: Condition[],
  ): Promise<{ outcome: Outcome; status: { lastAttemptedRevision: string } & Record<string, unknown> }> {
    await this.objects.patchStatus(fi, p, {
      conditions: progressing(conditions, fi.metadata.generation, "Reconciliation in progress"),
    });
    const tenantServiceAccount = fi.spec.cluster?.multitenant ? CONTROLLER_SERVICE_ACCOUNT : undefined;
    const objects = fi.spec.sync ? syncObjects(fi, { tenantServiceAccount }) : [];
    const manager = new ResourceManager(this.cluster, {
      fieldManager: OPERATOR_FIELD_MANAGER,
      owner: ownerOf(fi),
      previousInventory: fi.status?.inventory ?? { entries: [] },
      // The sync objects carry kustomize's ssa: Ignore and prune: Disabled for kustomize-controller, not for us.
      kustomizeAnnotations: false,
    });
    const prepared = manager.prepare(objects);
    const revision = `${FLUX_API_VERSION}@sha256:${createHash("sha256").update(JSON.stringify(prepared)).digest("hex")}`;
    if (fi.status?.lastAttemptedRevision !== revision) {
      const verb = fi.status?.lastAttemptedRevision ? "Upgrading to" : "Installing";
      await this.events.record(fi, "Normal", "Progressing", `${verb} revision ${revision}`);
    }
    let changeSet: Awaited<ReturnType<ResourceManager["apply"]>>;
    let inventory: ReturnType<typeof inventoryFromChangeSet>;
    let pruned: Awaited<ReturnType<typeof pruneStale>>;
    try {
      changeSet = await manager.apply(objects);
      inventory = inventoryFromChangeSet(changeSet);
      pruned = await pruneStale(this.cluster, fi.status?.inventory, inventory, {
        owner: ownerOf(fi),
        allowEmptySet: true,
        kustomizeAnnotations: false,
      });
    } catch (err) {
      // As the operator's apply failure: the revision was attempted (and keys the history entry).
      const failure = asFailure(
        err,
        (m) => new ReconcileFailure("ReconciliationFailed", `reconciliation failed: ${m}`),
      );
      return { outcome: failure, status: { lastAttemptedRevision: revision } };
    }
    inventory.entries.push(...pruned.failed);
    const image = await runningImage(this.cluster, fi.metadata.namespace!, this.flags.version ?? "0.0.0");
    const components = componentImages(fi.spec, image);
    const base = { inventory, components, lastAttemptedRevision: revision };
    const changed = [...changeSet, ...pruned.changeSet].filter(hasChanged);
    if (pruned.errors.length)
      return {
        outcome: new ReconcileFailure("ReconciliationFailed", `reconciliation failed: ${pruned.errors.join("; ")}`),
        status: base,
      };
    if (fi.spec.wait !== false && prepared.length) {
      try {
        const timeoutMs = annotatedMs(fi, "reconcileTimeout", 5 * 60_000);
        await waitForSet(this.cluster, prepared, { timeoutMs, intervalMs: 1000 });
      } catch (err) {
        return {
          outcome: new ReconcileFailure("ReconciliationFailed", `reconciliation failed: ${(err as Error).message}`),
          status: base,
        };
      }
    }
    const message = `Reconciliation finished in ${goDuration(Date.now() - started)}`;
    const applied = changed.length
      ? `Flux ${FLUX_API_VERSION} ${fi.status?.inventory?.entries.length ? "updated" : "installed"}\n${formatChangeSet(changed)}`
      : undefined;
    if (applied) await this.events.record(fi, "Normal", "ReconciliationSucceeded", applied);
    return {
      outcome: { reason: "ReconciliationSucceeded", message },
      status: { ...base, lastAppliedRevision: revision, lastArtifactRevision: "" },
    };
  }
}
