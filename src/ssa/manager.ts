// The resource manager: applies a set of objects to one cluster the way Flux does — in stages
// (definitions, classes, the rest), server-side dry-run of the whole set first so that a set with
// an invalid or forbidden object writes nothing, only drifted objects written — and prunes what a
// previous apply left behind; or plans a set (what apply would do, writing nothing). All API
// messages it returns are redacted of Secret values.
import { setTimeout as sleep } from "node:timers/promises";
import type { Cluster, ObjectRef } from "../kube/cluster.js";
import { NotFoundError } from "../kube/errors.js";
import { clone, objectId, parseApiVersion } from "../kube/object.js";
import type { KubeObject } from "../api/meta/object.js";
import { mapSettled } from "../util/map-settled.js";
import { type ChangeSetEntry, entryFor } from "./changeset.js";
import { ApplyError, DryRunError, type ObjectFailure, ResourceManagerError } from "./errors.js";
import { defaultTakeoverManagers, type ManagerMatch } from "./field-managers.js";
import { waitForSet } from "./health/wait.js";
import { parseInventoryId } from "./inventory.js";
import type { Inventory } from "../api/meta/inventory.js";
import { type Owner, setOwnerLabels } from "./metadata.js";
import { normalize } from "./normalize.js";
import { liveKey, type Plan, type PlanContext, planObject } from "./plan.js";
import { type PlanEntry, planEntry } from "./plan-entry.js";
import { Redactor } from "./redact.js";
import { kindRank, sortForApply } from "./sort.js";
import { type Stage, stageOf } from "./stages.js";

export interface ResourceManagerOptions {
  fieldManager: string;
  /** Owner labels put on every applied object (and required on objects to prune). */
  owner?: Owner;
  /** Re-create objects whose change hits an immutable field (Flux's spec.force). */
  force?: boolean;
  /** Requests in flight per phase. */
  concurrency?: number;
  /** How long definitions and classes may take to become ready before later stages. */
  stageTimeoutMs?: number;
  takeoverManagers?: ManagerMatch[];
  /**
   * What the previous apply of this set recorded (its inventory). Objects not in it are presumed
   * new: dry-run straight away instead of GET first, falling back to the full path when the
   * dry-run shows they exist. Saves a request per new object; without it every object is read.
   */
  previousInventory?: Inventory;
  /**
   * Whether kustomize-controller's annotations (ssa: Ignore/IfNotPresent, reconcile: disabled) decide what
   * is skipped (default). The Flux Operator's manager does not heed them: it writes them on its own objects.
   */
  kustomizeAnnotations?: boolean;
}

const STAGES: Stage[] = ["definitions", "classes", "resources"];

export class ResourceManager {
  private readonly concurrency: number;

  constructor(
    readonly cluster: Cluster,
    readonly options: ResourceManagerOptions,
  ) {
    this.concurrency = options.concurrency ?? 16;
  }

  /** Normalised, owner-labelled copies of the desired objects, in apply order. */
  prepare(objects: KubeObject[]): KubeObject[] {
    const prepared = objects.map((o) => {
      const n = normalize(clone(o));
      if (this.options.owner) setOwnerLabels(n, this.options.owner);
      return n;
    });
    const seen = new Map<string, number>();
    prepared.forEach((o, i) => {
      const id = `${parseApiVersion(o.apiVersion).group}/${objectId(o)}`;
      if (seen.has(id))
        throw new ResourceManagerError(
          `${objectId(o)} appears twice in the set (objects ${seen.get(id)! + 1} and ${i + 1})`,
        );
      seen.set(id, i);
    });
    return sortForApply(prepared);
  }

  /**
   * Applies the set and returns its change set. Throws DryRunError (listing every failing object)
   * before writing anything when the dry-run rejects objects; ApplyError if a write fails.
   */
  async apply(objects: KubeObject[]): Promise<ChangeSetEntry[]> {
    const desired = this.prepare(objects);
    const redactor = new Redactor().addObjects(objects);
    const ctx = await this.context(desired, redactor);

    const plans = await this.planAll(ctx, desired, true);
    this.throwFailures(plans, []);

    const changeSet: ChangeSetEntry[] = [];
    for (const stage of STAGES) {
      let stagePlans = plans.filter((p) => stageOf(p.desired) === stage);
      if (stagePlans.length === 0) continue;
      const deferred = stagePlans.filter((p) => p.deferred);
      if (deferred.length) {
        const replanned = await this.planAll(
          ctx,
          deferred.map((p) => p.desired),
          false,
        );
        this.throwFailures(replanned, changeSet);
        stagePlans = stagePlans.map((p) => (p.deferred ? replanned[deferred.indexOf(p)]! : p));
      }
      changeSet.push(...(await this.applyStage(stagePlans, redactor, changeSet)));
      if (stage !== "resources") {
        await waitForSet(
          this.cluster,
          stagePlans.map((p) => p.desired),
          { timeoutMs: this.options.stageTimeoutMs ?? 60_000, intervalMs: 500 },
        ).catch((err) => {
          throw new ApplyError(`${stage} not ready: ${(err as Error).message}`, changeSet);
        });
      }
    }
    return changeSet;
  }

  /**
   * What apply would do to each object of the set, in apply order, writing nothing: the same
   * planning apply does first (reads and server-side dry-runs only). Secret values never appear, nor
   * any value `redactor` already knows (e.g. one substituted from a Secret).
   */
  async plan(objects: KubeObject[], redactor = new Redactor()): Promise<PlanEntry[]> {
    const desired = this.prepare(objects);
    redactor.addObjects(objects);
    const plans = await this.planAll(await this.context(desired, redactor), desired, true);
    // The live Secrets' values too: a diff shows what is there now.
    redactor.addObjects(plans.flatMap((p) => (p.live ? [p.live] : [])));
    return plans.map((p) => planEntry(p, redactor));
  }

  private async context(desired: KubeObject[], redactor: Redactor): Promise<PlanContext> {
    const crdKindsInSet = new Set(
      desired
        .filter((o) => o.kind === "CustomResourceDefinition")
        .map((o) => {
          const spec = o.spec as { group?: string; names?: { kind?: string } } | undefined;
          return `${spec?.group ?? ""}/${spec?.names?.kind ?? ""}`;
        }),
    );
    const namespaces = desired
      .filter((o) => o.kind === "Namespace" && o.apiVersion === "v1")
      .map((o) => o.metadata.name);
    const newNamespaces = new Set<string>();
    await mapSettled(namespaces, this.concurrency, async (name) => {
      // Forbidden to read it counts as existing: the object's own dry-run will report what is wrong.
      const live = await this.cluster
        .get({ apiVersion: "v1", kind: "Namespace", metadata: { name } })
        .catch(() => ({}));
      if (!live) newNamespaces.add(name);
    });
    const previous = this.options.previousInventory;
    const known = previous
      ? new Set(
          previous.entries.map((e) => {
            const m = parseInventoryId(e.id);
            return `${m.group}/${m.kind}/${m.namespace}/${m.name}`;
          }),
        )
      : undefined;
    const presumedNew = known ? (o: KubeObject) => !known.has(liveKey(o)) : undefined;
    return {
      cluster: this.cluster,
      liveCache: await this.prefetch(presumedNew ? desired.filter((o) => !presumedNew(o)) : desired),
      presumedNew,
      fieldManager: this.options.fieldManager,
      force: this.options.force ?? false,
      takeoverManagers: this.options.takeoverManagers ?? defaultTakeoverManagers(this.options.fieldManager),
      redactor,
      crdKindsInSet,
      newNamespaces,
      kustomizeAnnotations: this.options.kustomizeAnnotations ?? true,
    };
  }

  /**
   * Reads live objects with one LIST per kind and namespace (where the set has several), instead of
   * one GET per object. Kinds we may not list (tenants) or do not know yet are left to per-object GETs.
   */
  private async prefetch(desired: KubeObject[]): Promise<Map<string, KubeObject | null>> {
    const cache = new Map<string, KubeObject | null>();
    const groups = new Map<string, KubeObject[]>();
    for (const o of desired) {
      const key = `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? ""}`;
      groups.set(key, [...(groups.get(key) ?? []), o]);
    }
    await mapSettled(
      [...groups.values()].filter((g) => g.length >= 2),
      this.concurrency,
      async (group) => {
        const first = group[0]!;
        const mapping = await this.cluster.mapping(first);
        const items = await this.cluster.list(mapping, mapping.namespaced ? first.metadata.namespace : undefined);
        const found = new Map(items.map((o) => [liveKey(o), o]));
        for (const o of group) {
          const namespace = mapping.namespaced ? o.metadata.namespace : undefined;
          const key = liveKey({
            apiVersion: o.apiVersion,
            kind: o.kind,
            metadata: { name: o.metadata.name, namespace },
          });
          cache.set(key, found.get(key) ?? null);
        }
      },
    );
    return cache;
  }

  private async planAll(ctx: PlanContext, desired: KubeObject[], allowDefer: boolean): Promise<Plan[]> {
    const settled = await mapSettled(desired, this.concurrency, (o) => planObject(ctx, o, allowDefer));
    return settled.map((s, i) =>
      s.status === "fulfilled"
        ? s.value
        : {
            desired: desired[i]!,
            action: "unknown" as const,
            failure: {
              subject: objectId(desired[i]!),
              message: ctx.redactor.redact(String((s.reason as Error)?.message ?? s.reason)),
            },
          },
    );
  }

  private throwFailures(plans: Plan[], applied: ChangeSetEntry[]): void {
    const failures = plans.map((p) => p.failure).filter((f): f is ObjectFailure => f !== undefined);
    if (failures.length) throw new DryRunError(failures, applied);
  }

  /** Writes one stage: kinds in rank order, objects of the same rank concurrently. */
  private async applyStage(plans: Plan[], redactor: Redactor, before: ChangeSetEntry[]): Promise<ChangeSetEntry[]> {
    const entries: ChangeSetEntry[] = [];
    const ranks = [...new Set(plans.map((p) => kindRank(p.desired.kind)))];
    for (const rank of ranks) {
      const group = plans.filter((p) => kindRank(p.desired.kind) === rank);
      const settled = await mapSettled(group, this.concurrency, (p) => this.write(p));
      const failed: string[] = [];
      settled.forEach((s, i) => {
        if (s.status === "fulfilled") entries.push(entryFor(group[i]!.desired, group[i]!.action));
        else
          failed.push(
            `${objectId(group[i]!.desired)} apply failed: ${redactor.redact(String((s.reason as Error)?.message ?? s.reason))}`,
          );
      });
      if (failed.length) throw new ApplyError(failed.join("\n"), [...before, ...entries]);
    }
    return entries;
  }

  private async write(plan: Plan): Promise<void> {
    if (plan.action === "unchanged" || plan.action === "skipped") return;
    const { fieldManager } = this.options;
    if (plan.recreate && plan.live) await this.recreate(plan.live);
    if (plan.takeover?.length) {
      await this.cluster.client.patch(await this.cluster.pathOf(plan.desired), "json", plan.takeover, { fieldManager });
    }
    await this.cluster.apply(plan.desired, fieldManager, { force: true });
  }

  /** Deletes an object whose immutable fields changed and waits until it is gone. */
  private async recreate(live: ObjectRef): Promise<void> {
    try {
      await this.cluster.delete(live, "Background");
    } catch (err) {
      if (!(err instanceof NotFoundError))
        throw new Error(`immutable field detected, failed to delete object: ${(err as Error).message}`);
    }
    const deadline = Date.now() + (this.options.stageTimeoutMs ?? 60_000);
    while (await this.cluster.get(live)) {
      if (Date.now() > deadline)
        throw new Error("immutable field detected, failed to wait for object to be deleted: timeout");
      await sleep(250);
    }
  }
}
