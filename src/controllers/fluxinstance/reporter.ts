// The FluxReport reconciler (the operator's fluxreport_controller.go): the report named flux in the
// controller's namespace is created at start, recomputed every reporting interval (the reconcileEvery
// annotation, else 5m as the operator's --reporting-interval) and at once when its reconcile annotation
// changes (the FluxInstance reconciler asks so after each of its reconciles). Its spec is the report
// (report.ts); its status has Ready "Reporting finished in 12ms".
import { SERVED_KINDS } from "../../api/kinds.js";
import { REQUESTED_AT_ANNOTATION } from "../../api/meta/annotations.js";
import { type FluxReport } from "../../api/operator/fluxreport.js";
import { INSTANCE_NAME } from "../../api/operator/fluxinstance.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ReconcileContext, Reconciler, Request, Result } from "../../runtime/controller.js";
import { setCondition } from "../../runtime/conditions.js";
import type { ControllerFlags } from "../kit/setup.js";
import { computeReport } from "./report.js";
import { annotatedMs, goDuration, isDisabled } from "../kit/operator-annotations.js";

export const REPORTING_INTERVAL_MS = 5 * 60_000;

/**
 * The report as the operator creates it at start (initReport): no labels, so on a sharded install it is
 * the main process's (!<key>), the only one running the FluxReport controller (process-scope.ts).
 */
export const initialReport = (namespace: string) => ({
  apiVersion: "fluxcd.controlplane.io/v1",
  kind: "FluxReport",
  metadata: { name: INSTANCE_NAME, namespace },
  spec: { distribution: { status: "Unknown", entitlement: "Unknown" } },
});

/** Creates the report when there is none yet. */
export async function initReport(cluster: Cluster, namespace: string): Promise<void> {
  await cluster.client
    .create(pathOf(SERVED_KINDS.FluxReport, namespace), initialReport(namespace))
    .catch(() => undefined); // there already is one
}

export class FluxReportReconciler implements Reconciler {
  constructor(
    private readonly cluster: Cluster,
    private readonly flags: ControllerFlags,
  ) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result | void> {
    const p = pathOf(SERVED_KINDS.FluxReport, req.namespace, req.name);
    const report = await this.cluster.client.get<FluxReport>(p).catch(() => undefined);
    if (!report || report.metadata.deletionTimestamp) return;
    const home = this.flags.runtimeNamespace ?? req.namespace;
    if (req.name !== INSTANCE_NAME || req.namespace !== home) {
      ctx.log.info("FluxReport not computed: one per cluster, named flux, in the controller's namespace", { home });
      return;
    }
    if (isDisabled(report)) return;
    const started = Date.now();
    const spec = await computeReport(this.cluster, req.namespace, this.flags.version ?? "0.0.0");
    // A merge patch replaces lists and drops what is gone (a sync removed: null).
    await this.cluster.client.patch(p, "merge", { spec: { cluster: null, sync: null, ...spec } });
    const conditions = setCondition(report.status?.conditions ?? [], {
      type: "Ready",
      status: "True",
      reason: "Succeeded",
      message: `Reporting finished in ${goDuration(Date.now() - started)}`,
      observedGeneration: report.metadata.generation,
    });
    const handled = report.metadata.annotations?.[REQUESTED_AT_ANNOTATION];
    await this.cluster.client.patch(`${p}/status`, "merge", {
      status: { conditions, ...(handled ? { lastHandledReconcileAt: handled } : {}) },
    });
    return { requeueAfterMs: annotatedMs(report, "reconcileEvery", REPORTING_INTERVAL_MS) };
  }
}
