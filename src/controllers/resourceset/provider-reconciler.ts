// The ResourceSetInputProvider reconciler (the operator's resourcesetinputprovider_controller.go): computes
// the input sets a provider exports and writes them to status.exportedInputs with lastExportedRevision (the
// sha256 of their YAML) and Ready "Reconciliation finished in 1.2s", every reconcileEvery (default 10m),
// each call bounded by reconcileTimeout (default 2m). spec.schedule (provider-schedule.ts) holds a run
// outside its deployment windows: Ready stays as it was (SkippedDueToSchedule on a first run),
// status.nextSchedule says when, and a forceAt request runs anyway. A ResourceSet reading the provider
// is queued by the status change (setup.ts). Types and fields flotilla does not implement are refused by
// name (Stalled).
import { createHash } from "node:crypto";
import { SERVED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { ResourceSetInputProvider } from "../../api/operator/resourceset-input-provider.js";
import type { Cluster } from "../../kube/cluster.js";
import { type Json, toYaml } from "../../kustomize/yaml/emit.js";
import type { ReconcileContext, Request, Result } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import { asFailure, ReconcileFailure } from "../kit/failure.js";
import { ObjectReconciler } from "../kit/object-reconciler.js";
import { ReconciledObjects } from "../kit/objects.js";
import { type Outcome, progressing } from "../kit/outcome.js";
import { refuseUnsupported } from "../kit/unsupported.js";
import { inputId, type InputSet } from "./inputs.js";
import { externalServiceInputs, ociTagInputs } from "./provider-sources.js";
import { forgeInputs } from "./provider-forge.js";
import { forgeOf } from "./forge-inputs.js";
import { budgetFor } from "./provider-http.js";
import { Scheduler, type ScheduleSpec } from "./provider-schedule.js";
import { FORCE_AT_ANNOTATION, REQUESTED_AT_ANNOTATION } from "../../api/meta/annotations.js";
import { READY, RECONCILING } from "../../api/meta/conditions.js";
import { removeCondition, setCondition } from "../../runtime/conditions.js";
import { PROVIDER_UNSUPPORTED, validateProvider } from "./provider-unsupported.js";
import { annotatedMs, goDuration, isDisabled } from "../kit/operator-annotations.js";

const TERMINAL = "Reconciliation failed terminally due to configuration error";

/** meta.ShouldHandleForceRequest: forceAt equal to requestedAt and not handled yet. */
function forceRequest(p: ResourceSetInputProvider): string | undefined {
  const a = p.metadata.annotations ?? {};
  const at = a[FORCE_AT_ANNOTATION];
  if (!at || at !== a[REQUESTED_AT_ANNOTATION]) return undefined;
  return at === (p.status as { lastHandledForceAt?: string } | undefined)?.lastHandledForceAt ? undefined : at;
}

const sortedDeep = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortedDeep)
    : v !== null && typeof v === "object"
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sortedDeep((v as Record<string, unknown>)[k])]),
        )
      : v;

/** digest.FromBytes(yaml.Marshal(exportedInputs)). */
export const exportedRevision = (inputs: InputSet[]) =>
  "sha256:" +
  createHash("sha256")
    .update(inputs.length ? toYaml(sortedDeep(inputs) as Json) : "[]\n")
    .digest("hex");

export class InputProviderReconciler extends ObjectReconciler<ResourceSetInputProvider> {
  constructor(
    private readonly cluster: Cluster,
    private readonly events: EventRecorder,
  ) {
    super(new ReconciledObjects(cluster), events);
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const p = pathOf(SERVED_KINDS.ResourceSetInputProvider, req.namespace, req.name);
    const found = await this.objects.read(p, ctx.cached);
    if (!found || found.metadata.deletionTimestamp) return;
    if (isDisabled(found)) return;
    const started = Date.now();
    let intervalMs = annotatedMs(found, "reconcileEvery", 10 * 60_000);
    const timeoutMs = annotatedMs(found, "reconcileTimeout", 2 * 60_000);
    const force = forceRequest(found);
    let outcome: Outcome;
    let status: Record<string, unknown> = { nextSchedule: null, ...(force ? { lastHandledForceAt: force } : {}) };
    try {
      refuseUnsupported(found.spec, PROVIDER_UNSUPPORTED);
      let scheduler: Scheduler | undefined;
      try {
        scheduler = Scheduler.of(found.spec.schedule as ScheduleSpec[] | undefined, timeoutMs);
      } catch (err) {
        throw new ReconcileFailure("InvalidSchedule", `${TERMINAL}: ${(err as Error).message}`, { stalled: true });
      }
      if (scheduler && !force && !scheduler.shouldReconcile(started)) return this.skipped(found, p, scheduler, started);
      validateProvider(found);
      if (found.spec.type !== "Static")
        await this.objects.patchStatus(found, p, {
          conditions: progressing(
            found.status?.conditions ?? [],
            found.metadata.generation,
            "Reconciliation in progress",
          ),
        });
      const inputs = await this.exported(found, timeoutMs);
      const revision = exportedRevision(inputs);
      const message = `Reconciliation finished in ${goDuration(Date.now() - started)}`;
      status = { ...status, exportedInputs: inputs, lastExportedRevision: revision };
      if (scheduler) {
        const after = scheduler.afterRun(Date.now(), intervalMs);
        intervalMs = after.requeueAfterMs;
        if (after.nextSchedule) status.nextSchedule = after.nextSchedule;
      }
      outcome = {
        reason: "ReconciliationSucceeded",
        message,
        ...(revision !== found.status?.lastExportedRevision
          ? { event: { reason: "ReconciliationSucceeded", message: `${message}, revision ${revision}` } }
          : {}),
      };
    } catch (err) {
      outcome = asFailure(err, (m) => new ReconcileFailure("ReconciliationFailed", m));
    }
    return this.finisher.finish(found, p, ctx, {
      outcome,
      conditions: found.status?.conditions ?? [],
      status,
      timing: { intervalMs },
    });
  }

  /** Outside every window: say when the next one opens, and wait for it. */
  private async skipped(found: ResourceSetInputProvider, path: string, scheduler: Scheduler, now: number) {
    const nextSchedule = scheduler.next(now);
    const message = `Reconciliation skipped, next scheduled at ${nextSchedule.when}`;
    let conditions = found.status?.conditions ?? [];
    const ready = conditions.find((c) => c.type === READY);
    // Only a first run (Ready Unknown or not yet written: the operator starts every object at Ready
    // Unknown) turns Ready; otherwise the last result stands.
    const first = !ready || ready.status === "Unknown";
    if (first)
      conditions = setCondition(removeCondition(conditions, RECONCILING), {
        type: READY,
        status: "True",
        reason: "SkippedDueToSchedule",
        message,
        observedGeneration: found.metadata.generation,
      });
    await this.objects.patchStatus(found, path, {
      nextSchedule,
      conditions,
      ...(first ? { observedGeneration: found.metadata.generation } : {}),
    });
    await this.events.record(found, "Normal", "SkippedDueToSchedule", message);
    return { requeueAfterMs: Math.max(1000, Date.parse(nextSchedule.when) - now) };
  }

  private async exported(p: ResourceSetInputProvider, timeoutMs: number): Promise<InputSet[]> {
    if (forgeOf(p.spec.type)) return forgeInputs(this.cluster, p, await budgetFor(this.cluster, p, timeoutMs));
    switch (p.spec.type) {
      case "Static":
        return [{ ...(p.spec.defaultValues ?? {}), id: inputId(p.metadata.uid ?? "") }];
      case "ExternalService":
        try {
          return await externalServiceInputs(this.cluster, p, await budgetFor(this.cluster, p, timeoutMs));
        } catch (err) {
          throw new Error(`failed to call ExternalService provider: ${(err as Error).message}`);
        }
      case "OCIArtifactTag":
        try {
          return await ociTagInputs(p, timeoutMs);
        } catch (err) {
          throw new Error(`failed to call OCI provider: ${(err as Error).message}`);
        }
      default:
        throw new ReconcileFailure("UnsupportedField", `spec.type '${p.spec.type}' is not supported`, {
          stalled: true,
        });
    }
  }
}
