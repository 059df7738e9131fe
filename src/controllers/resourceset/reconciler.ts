// The ResourceSet reconciler (the operator's internal/controller/resourceset_controller.go, decision
// 0040): finalizer fluxcd.controlplane.io/finalizer; reconcile: disabled leaves the object alone; then
// dependsOn, inputs (inline and Static providers, Flatten or Permute), the build, commonMetadata and the
// owner labels resourceset.fluxcd.controlplane.io/{name,namespace}, a server-side apply as field manager
// flux-operator under spec.serviceAccountName, garbage collection of what the inventory no longer has,
// spec.wait, and the status (inventory, lastAppliedRevision, history, Ready) as the operator writes it.
import { SERVED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { KubeObject } from "../../api/meta/object.js";
import { OPERATOR_FINALIZER, type ResourceSet } from "../../api/operator/resourceset.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ReconcileContext, Request, Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import {
  formatChangeSet,
  hasChanged,
  inventoryFromChangeSet,
  type Owner,
  pruneStale,
  ResourceManager,
  waitForSet,
} from "../../ssa/index.js";
import { asFailure, ReconcileFailure } from "../kit/failure.js";
import { ObjectReconciler } from "../kit/object-reconciler.js";
import { ReconciledObjects } from "../kit/objects.js";
import { type Outcome, progressing } from "../kit/outcome.js";
import { refuseUnsupported } from "../kit/unsupported.js";
import { buildResourceSet, setCommonMetadata } from "./build.js";
import { computeChecksums } from "./checksum-from.js";
import { convertKubeConfigResources, copyResources } from "./copy-from.js";
import { checkDependencies } from "./dependencies.js";
import { combineInputs, orderProviders } from "./inputs.js";
import { readProviders } from "./providers.js";
import { goDuration, isDisabled } from "../kit/operator-annotations.js";
import { intervalOf, isForced, setDigest, timeoutOf, upsertHistory } from "./status.js";
import { refuseObjectAnnotations, RESOURCESET_UNSUPPORTED } from "./unsupported.js";

export const RESOURCESET_FIELD_MANAGER = "flux-operator";
const path = (ns: string, name: string) => pathOf(SERVED_KINDS.ResourceSet, ns, name);
export const ownerOf = (r: ResourceSet): Owner => ({
  group: "resourceset.fluxcd.controlplane.io",
  name: r.metadata.name,
  namespace: r.metadata.namespace!,
});
const stalled = (prefix: string) => (m: string) =>
  new ReconcileFailure("BuildFailed", `${prefix}: ${m}`, { stalled: true });

export interface ResourceSetOptions {
  defaultServiceAccount?: string;
  requeueDependencyMs?: number;
}

export class ResourceSetReconciler extends ObjectReconciler<ResourceSet> {
  constructor(
    private readonly cluster: Cluster,
    private readonly events: EventRecorder,
    private readonly options: ResourceSetOptions = {},
  ) {
    super(new ReconciledObjects(cluster), events);
  }

  private target(r: ResourceSet): Cluster {
    const sa = r.spec.serviceAccountName ?? this.options.defaultServiceAccount;
    return sa ? this.cluster.asServiceAccount(r.metadata.namespace!, sa) : this.cluster;
  }

  private async setFinalizers(r: ResourceSet, p: string, finalizers: string[]): Promise<ResourceSet> {
    return this.cluster.client.patch<ResourceSet>(p, "merge", {
      metadata: { finalizers, resourceVersion: r.metadata.resourceVersion },
    });
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const p = path(req.namespace, req.name);
    const found = await this.objects.read(p, ctx.cached);
    if (!found) return;
    const finalizers = found.metadata.finalizers ?? [];
    if (found.metadata.deletionTimestamp) {
      if (!finalizers.includes(OPERATOR_FINALIZER)) return;
      if (!isDisabled(found)) {
        const pruned = await pruneStale(
          this.target(found),
          found.status?.inventory,
          { entries: [] },
          { owner: ownerOf(found), allowEmptySet: true },
        );
        if (pruned.errors.length)
          throw new ReconcileFailure("ReconciliationFailed", `garbage collection failed: ${pruned.errors.join("; ")}`);
      }
      await this.setFinalizers(
        found,
        p,
        finalizers.filter((f) => f !== OPERATOR_FINALIZER),
      );
      return;
    }
    const r = finalizers.includes(OPERATOR_FINALIZER)
      ? found
      : await this.setFinalizers(found, p, [...finalizers, OPERATOR_FINALIZER]);
    if (isDisabled(r)) {
      ctx.log.info("Reconciliation is disabled");
      await this.events.record(r, "Warning", "ReconciliationDisabled", "Reconciliation is disabled");
      return;
    }
    const started = Date.now();
    let status: Record<string, unknown> = {};
    let outcome: Outcome;
    try {
      ({ outcome, status } = await this.attempt(r, p, started));
    } catch (err) {
      outcome = asFailure(err, (m) => new ReconcileFailure("ReconciliationFailed", `reconciliation failed: ${m}`));
    }
    return this.finisher.finish(r, p, ctx, {
      outcome,
      conditions: r.status?.conditions ?? [],
      status,
      timing: { intervalMs: intervalOf(r) },
    });
  }

  private async attempt(
    r: ResourceSet,
    p: string,
    started: number,
  ): Promise<{ outcome: Outcome; status: Record<string, unknown> }> {
    refuseUnsupported(r.spec, RESOURCESET_UNSUPPORTED);
    await checkDependencies(this.cluster, r, this.options.requeueDependencyMs ?? 5_000);
    await this.objects.patchStatus(r, p, {
      conditions: progressing(r.status?.conditions ?? [], r.metadata.generation, "Reconciliation in progress"),
    });

    let objects: KubeObject[] = [];
    let inputCount = 0;
    try {
      const own = {
        apiVersion: "fluxcd.controlplane.io/v1",
        kind: "ResourceSet",
        name: r.metadata.name,
        namespace: r.metadata.namespace!,
        inputs: r.spec.inputs ?? [],
      };
      const sources = orderProviders(own, await readProviders(this.cluster, r));
      const inputs = combineInputs(
        r.spec.inputStrategy?.name ?? "Flatten",
        sources,
        r.spec.inputStrategy?.includeEmptyProviders,
      );
      inputCount = inputs.length;
      // Providers that export nothing: an empty set, so what they generated is collected (as the operator does).
      if (!(r.spec.inputsFrom?.length && inputs.length === 0)) objects = buildResourceSet(r.spec, inputs);
    } catch (err) {
      throw asFailure(err, stalled("build failed"));
    }
    refuseObjectAnnotations(objects);
    setCommonMetadata(objects, r.spec.commonMetadata);

    const target = this.target(r);
    // copyFrom, convertKubeConfigFrom and checksumFrom read their sources as the ResourceSet's account.
    // A failure here is ReconciliationFailed (not Stalled): the source may appear later.
    await copyResources(target, objects);
    await convertKubeConfigResources(target, objects);
    const externalChecksumRefs = await computeChecksums(target, objects);
    const manager = new ResourceManager(target, {
      fieldManager: RESOURCESET_FIELD_MANAGER,
      owner: ownerOf(r),
      force: isForced(r),
      previousInventory: r.status?.inventory ?? { entries: [] },
    });
    const changeSet = await manager.apply(objects);
    const inventory = inventoryFromChangeSet(changeSet);
    const pruned = await pruneStale(target, r.status?.inventory, inventory, { owner: ownerOf(r), allowEmptySet: true });
    inventory.entries.push(...pruned.failed);
    const digest = setDigest(manager.prepare(objects));
    const metadata = { inputs: String(inputCount), resources: String(objects.length) };
    const changed = [...changeSet, ...pruned.changeSet].filter(hasChanged);
    if (changed.length) await this.events.record(r, "Normal", "ApplySucceeded", formatChangeSet(changed));
    if (pruned.errors.length)
      throw new ReconcileFailure("ReconciliationFailed", `reconciliation failed: ${pruned.errors.join("; ")}`);
    if (r.spec.wait && objects.length) {
      try {
        await waitForSet(target, manager.prepare(objects), { timeoutMs: timeoutOf(r), intervalMs: 1000 });
      } catch (err) {
        const message = `reconciliation failed: health check failed after ${goDuration(Date.now() - started)}: ${(err as Error).message}`;
        const history = upsertHistory(
          r.status?.history,
          digest,
          new Date(),
          Date.now() - started,
          "ReconciliationFailed",
          metadata,
        );
        return {
          outcome: new ReconcileFailure("ReconciliationFailed", message),
          status: { inventory, history, externalChecksumRefs },
        };
      }
    }
    const message = `Reconciliation finished in ${goDuration(Date.now() - started)}`;
    const history = upsertHistory(
      r.status?.history,
      digest,
      new Date(),
      Date.now() - started,
      "ReconciliationSucceeded",
      metadata,
    );
    return {
      outcome: { reason: "ReconciliationSucceeded", message, event: { reason: "ReconciliationSucceeded", message } },
      status: { inventory, lastAppliedRevision: digest, history, externalChecksumRefs },
    };
  }
}
