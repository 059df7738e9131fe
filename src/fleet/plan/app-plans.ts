// One app's plan: render it with the new content, then ask the backend what applying that would do.
// A failure (a build error, an unreachable cluster) is the app's error, never the whole plan's.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import { helmChartFromTemplate } from "../../controllers/helmrelease/chart-source.js";
import { renderRelease } from "../../controllers/helmrelease/render-apply.js";
import { renderKustomization, withOwnerLabels } from "../../controllers/kustomization/render-apply.js";
import { Redactor, isSubset } from "../../ssa/index.js";
import { confinedRealpath } from "../../util/confined-path.js";
import { type App, clusterKeyOf } from "../status/fleet-view.js";
import type { PlanBackend } from "./backend.js";
import { fill } from "./fill.js";
import { keyOf, type ManagementState } from "./management-state.js";
import { type AppPlan, emptyAppPlan } from "./types.js";

export interface PlanContext {
  state: ManagementState;
  backend: PlanBackend;
  /** Replaced sources: `Kind/namespace/name` → directory. */
  overrides: Map<string, string>;
  bySecret: Map<string, FleetCluster>;
  work: string;
  /** How a HelmRelease renders (default: `helm template` as the install runs it); unit tests, which start no process, pass their own. */
  renderRelease?: typeof renderRelease;
}

const message = (err: unknown, redactor: Redactor) => redactor.redact((err as Error).message ?? String(err));

export function ksSourceKey(ks: Kustomization): string {
  const ref = ks.spec.sourceRef;
  return keyOf(ref.kind, ref.namespace ?? ks.metadata.namespace, ref.name);
}

export async function planKustomization(
  ctx: PlanContext,
  ks: Kustomization,
  via: string,
): Promise<{ plan: AppPlan; rendered: KubeObject[] }> {
  const ns = ks.metadata.namespace!;
  const plan = emptyAppPlan(
    clusterKeyOf(ks as unknown as App, ctx.bySecret),
    "Kustomization",
    ns,
    ks.metadata.name,
    via,
  );
  if (ks.spec.suspend) plan.notes.push("suspended: its controller applies nothing until it is resumed");
  const redactor = new Redactor();
  try {
    const ref = ks.spec.sourceRef;
    const dir =
      ctx.overrides.get(ksSourceKey(ks)) ?? (await ctx.backend.artifactDir(ref.kind, ref.namespace ?? ns, ref.name));
    const vars = await ctx.backend.variables(ks, redactor);
    const objects = withOwnerLabels(renderKustomization(dir, ks, vars), ks);
    redactor.addObjects(objects);
    fill(plan, await ctx.backend.diffKustomization(ks, objects, redactor));
    return { plan, rendered: objects };
  } catch (err) {
    plan.errors.push({ message: message(err, redactor) });
    return { plan, rendered: [] };
  }
}

/** The chart a HelmRelease would render: from a replaced GitRepository, else the one it reads now. */
async function chartOf(ctx: PlanContext, hr: HelmRelease): Promise<string> {
  const ns = hr.metadata.namespace!;
  let template = hr.spec.chart?.spec;
  // A chartRef to an OCIRepository (or ExternalArtifact) is its current artifact: the backend's chart().
  if (hr.spec.chartRef?.kind === "HelmChart") {
    const ref = hr.spec.chartRef;
    const chart = ctx.state.helmCharts.find(
      (c) => c.metadata.name === ref.name && c.metadata.namespace === (ref.namespace ?? ns),
    );
    template = chart
      ? { ...chart.spec, sourceRef: { ...chart.spec.sourceRef, namespace: chart.metadata.namespace } }
      : undefined;
  }
  if (template?.sourceRef.kind === "GitRepository") {
    const dir = ctx.overrides.get(keyOf("GitRepository", template.sourceRef.namespace ?? ns, template.sourceRef.name));
    if (dir) {
      const where = confinedRealpath(resolve(dir, template.chart), dir);
      if (!("real" in where) || !existsSync(where.real))
        throw new Error(`chart path ${template.chart} is not a directory inside ${dir}`);
      return where.real;
    }
  }
  if (hr.spec.chart) {
    // Another chart or version than the HelmChart holds now (a version bump, a new release): pulled from
    // the HelmRepository, as the HelmChart will once the change is applied.
    const want = helmChartFromTemplate(hr);
    const live = ctx.state.helmCharts.find(
      (c) => c.metadata.name === want.metadata.name && c.metadata.namespace === want.metadata.namespace,
    );
    if (!live || !isSubset({ chart: want.spec.chart, version: want.spec.version }, live.spec)) {
      const ref = hr.spec.chart.spec.sourceRef;
      const repoNs = ref.namespace ?? ns;
      if (ref.kind !== "HelmRepository")
        throw new Error(
          `spec.chart.spec changes the chart to ${want.spec.chart}@${want.spec.version} from ${ref.kind} ${repoNs}/${ref.name}: the plan renders a chart from a HelmRepository, a replaced GitRepository or the HelmChart's current artifact`,
        );
      const repo = (ctx.state.helmRepositories ?? []).find(
        (r) => r.metadata.name === ref.name && r.metadata.namespace === repoNs,
      );
      if (!repo) throw new Error(`HelmRepository ${repoNs}/${ref.name} not found`);
      return ctx.backend.pullChart(repo, want.spec.chart, want.spec.version ?? "*");
    }
  }
  return ctx.backend.chart(hr);
}

export async function planHelmRelease(ctx: PlanContext, hr: HelmRelease, via: string): Promise<AppPlan> {
  const ns = hr.metadata.namespace!;
  const plan = emptyAppPlan(clusterKeyOf(hr as unknown as App, ctx.bySecret), "HelmRelease", ns, hr.metadata.name, via);
  if (hr.spec.suspend) plan.notes.push("suspended: its controller installs nothing until it is resumed");
  const redactor = new Redactor();
  try {
    const chart = await chartOf(ctx, hr);
    const values = await ctx.backend.values(hr, redactor);
    const render = ctx.renderRelease ?? renderRelease;
    const objects = await render(hr, chart, values, (o) => ctx.backend.namespaced(hr, o));
    redactor.addObjects(objects);
    fill(plan, await ctx.backend.diffHelmRelease(hr, objects, redactor));
  } catch (err) {
    plan.errors.push({ message: message(err, redactor) });
  }
  return plan;
}
