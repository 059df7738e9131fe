// The ResourceSetInputProvider reconciler (the operator's resourcesetinputprovider_controller.go): computes
// the input sets a provider exports and writes them to status.exportedInputs with lastExportedRevision (the
// sha256 of their YAML) and Ready "Reconciliation finished in 1.2s", every reconcileEvery (default 10m),
// each call bounded by reconcileTimeout (default 2m). A ResourceSet reading the provider is queued by the
// status change (setup.ts). Types and fields flotilla does not implement are refused by name (Stalled).
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
import { PROVIDER_UNSUPPORTED, validateProvider } from "./provider-unsupported.js";
import { annotatedMs, goDuration, isDisabled } from "../kit/operator-annotations.js";

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
    const intervalMs = annotatedMs(found, "reconcileEvery", 10 * 60_000);
    let outcome: Outcome;
    let status: Record<string, unknown> = {};
    try {
      refuseUnsupported(found.spec, PROVIDER_UNSUPPORTED);
      validateProvider(found);
      if (found.spec.type !== "Static")
        await this.objects.patchStatus(found, p, {
          conditions: progressing(
            found.status?.conditions ?? [],
            found.metadata.generation,
            "Reconciliation in progress",
          ),
        });
      const inputs = await this.exported(found);
      const revision = exportedRevision(inputs);
      const message = `Reconciliation finished in ${goDuration(Date.now() - started)}`;
      status = { exportedInputs: inputs, lastExportedRevision: revision };
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

  private async exported(p: ResourceSetInputProvider): Promise<InputSet[]> {
    const timeoutMs = annotatedMs(p, "reconcileTimeout", 2 * 60_000);
    switch (p.spec.type) {
      case "Static":
        return [{ ...(p.spec.defaultValues ?? {}), id: inputId(p.metadata.uid ?? "") }];
      case "ExternalService":
        try {
          return await externalServiceInputs(this.cluster, p, timeoutMs);
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
