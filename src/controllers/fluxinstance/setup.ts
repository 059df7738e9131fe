// The FluxInstance and FluxReport controllers as the manager runs them (decision 0043). The report is
// created at start, as the operator does, and recomputed when its annotations change (a reconcile
// request) — not on its own spec writes, which would loop.
import { gvkOf, SERVED_KINDS } from "../../api/kinds.js";
import type { Predicate } from "../../runtime/controller.js";
import type { ControllerDeps, ControllerSetup } from "../kit/setup.js";
import { FluxInstanceReconciler } from "./reconciler.js";
import { FluxReportReconciler, initReport } from "./reporter.js";

type Deps = Pick<ControllerDeps, "cluster" | "events" | "flags">;

export const fluxInstanceController: ControllerSetup<Deps> = {
  name: "fluxinstance",
  kind: gvkOf(SERVED_KINDS.FluxInstance),
  reconciler: ({ cluster, events, flags }) => new FluxInstanceReconciler(cluster, events, flags),
};

const annotationsChanged: Predicate = (o, n) =>
  JSON.stringify(o.metadata.annotations ?? {}) !== JSON.stringify(n.metadata.annotations ?? {});

export const fluxReportController: ControllerSetup<Deps> = {
  name: "fluxreport",
  kind: gvkOf(SERVED_KINDS.FluxReport),
  predicates: [annotationsChanged],
  reconciler: ({ cluster, flags }) => new FluxReportReconciler(cluster, flags),
  connect: (_controller, { cluster, flags }) => {
    if (flags.runtimeNamespace) void initReport(cluster, flags.runtimeNamespace);
  },
};
