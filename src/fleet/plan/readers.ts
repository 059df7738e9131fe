// Which source an app reads: a Kustomization's sourceRef, a HelmRelease's chart source (through the
// HelmChart a chartRef names), a fleet parent's template's. Fleet children are planned through their
// parent, never on their own (the parent decides what each cluster's child becomes).
import type { FleetHelmRelease } from "../../api/fleet/fleet-helmrelease.js";
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import { fleetHelmReleaseKind } from "../fleethelmrelease/kind.js";
import { fleetKustomizationKind } from "../fleetkustomization/kind.js";
import { ksSourceKey, type PlanContext } from "./app-plans.js";
import { keyOf } from "./management-state.js";

export type Planned = Kustomization | HelmRelease | FleetKustomization | FleetHelmRelease;

function hrSourceKey(ctx: PlanContext, hr: HelmRelease): string | undefined {
  const ns = hr.metadata.namespace!;
  if (hr.spec.chart) {
    const ref = hr.spec.chart.spec.sourceRef;
    return keyOf(ref.kind, ref.namespace ?? ns, ref.name);
  }
  const ref = hr.spec.chartRef!;
  const chart = ctx.state.helmCharts.find(
    (c) => c.metadata.name === ref.name && c.metadata.namespace === (ref.namespace ?? ns),
  );
  return chart && keyOf(chart.spec.sourceRef.kind, chart.metadata.namespace, chart.spec.sourceRef.name);
}

export function sourceKeyOf(ctx: PlanContext, o: Planned): string | undefined {
  const ns = o.metadata.namespace!;
  if (o.kind === "Kustomization") return ksSourceKey(o as Kustomization);
  if (o.kind === "HelmRelease") return hrSourceKey(ctx, o as HelmRelease);
  if (o.kind === "FleetKustomization") {
    const ref = (o as FleetKustomization).spec.template.spec.sourceRef;
    return keyOf(ref.kind, ref.namespace ?? ns, ref.name);
  }
  const chart = (o as FleetHelmRelease).spec.template.spec.chart?.spec.sourceRef;
  return chart && keyOf(chart.kind, chart.namespace ?? ns, chart.name);
}

export const isFleetChild = (o: KubeObject) =>
  !!o.metadata.labels?.[fleetKustomizationKind.parentLabel] || !!o.metadata.labels?.[fleetHelmReleaseKind.parentLabel];
