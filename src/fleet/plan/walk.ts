// Which apps a change reaches, recursively: every Kustomization, HelmRelease, FleetKustomization and
// FleetHelmRelease reading a replaced source; then whatever a planned Kustomization renders onto the
// management cluster — a Kustomization, HelmRelease or fleet parent whose spec changes is planned with
// the new spec, a GitRepository whose spec changes is checked out and its readers planned, an app the
// render drops is named as deleted. Each app appears once, with the newest spec the walk found.
import type { FleetHelmRelease } from "../../api/fleet/fleet-helmrelease.js";
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import { isSubset, parseInventoryId } from "../../ssa/index.js";
import { fleetHelmReleaseKind } from "../fleethelmrelease/kind.js";
import { fleetKustomizationKind } from "../fleetkustomization/kind.js";
import type { ChildKind, FleetParent } from "../fanout/child-kind.js";
import { type App, clusterKeyOf } from "../status/fleet-view.js";
import { ksSourceKey, type PlanContext, planHelmRelease, planKustomization } from "./app-plans.js";
import { fleetChildren } from "./fleet-children.js";
import { keyOf, objectKey } from "./management-state.js";
import { type AppPlan, emptyAppPlan } from "./types.js";

const FOLLOWED = new Set(["Kustomization", "HelmRelease", "FleetKustomization", "FleetHelmRelease", "GitRepository"]);
/** A render that keeps rewriting one object (a loop through sources) stops here. */
const MAX_VISITS = 8;

type Planned = Kustomization | HelmRelease | FleetKustomization | FleetHelmRelease;
type Spec = { spec?: Record<string, unknown> };

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

function sourceKeyOf(ctx: PlanContext, o: Planned): string | undefined {
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

const isFleetChild = (o: KubeObject) =>
  !!o.metadata.labels?.[fleetKustomizationKind.parentLabel] || !!o.metadata.labels?.[fleetHelmReleaseKind.parentLabel];

export async function planFleet(ctx: PlanContext): Promise<AppPlan[]> {
  const { state } = ctx;
  const results = new Map<string, AppPlan>();
  const newest = new Map<string, KubeObject>();
  const visits = new Map<string, number>();
  const queue: { obj: Planned; via: string }[] = [];
  const live = (): Planned[] => [
    ...state.kustomizations.filter((k) => !isFleetChild(k)),
    ...state.helmReleases.filter((h) => !isFleetChild(h)),
    ...state.fleetKustomizations,
    ...state.fleetHelmReleases,
  ];
  const readersOf = (source: string) =>
    live()
      .filter((o) => sourceKeyOf(ctx, o) === source)
      .map((o) => (newest.get(objectKey(o)) ?? o) as Planned);
  for (const source of ctx.overrides.keys())
    for (const obj of readersOf(source)) queue.push({ obj, via: `reads ${source}` });

  const record = (key: string, plan: AppPlan) => results.set(`${key}@${plan.cluster}`, plan);

  /** What a Kustomization applying to the management cluster renders, followed. */
  const follow = async (parent: AppPlan, rendered: KubeObject[], previous: string[]) => {
    const via = `rendered by Kustomization ${parent.namespace}/${parent.name}`;
    for (const obj of rendered) {
      if (
        !FOLLOWED.has(obj.kind) ||
        (!obj.apiVersion.includes("toolkit.fluxcd.io") && !obj.apiVersion.startsWith("fleet.flotilla.dev"))
      )
        continue;
      const key = objectKey(obj);
      const current =
        newest.get(key) ??
        live().find((o) => objectKey(o) === key) ??
        state.gitRepositories.find((o) => objectKey(o) === key);
      if (current && isSubset((obj as Spec).spec ?? {}, (current as Spec).spec ?? {})) continue;
      const next = {
        ...current,
        ...obj,
        metadata: { ...current?.metadata, ...obj.metadata },
        ...(current && "status" in current ? { status: current.status } : {}),
      } as KubeObject;
      newest.set(key, next);
      if (obj.kind === "GitRepository") {
        if (!ctx.backend.checkoutChanged) {
          parent.notes.push(
            `${key} changes (${current ? "its spec" : "new"}): an offline plan cannot check it out; its readers are not planned`,
          );
          continue;
        }
        try {
          ctx.overrides.set(key, await ctx.backend.checkoutChanged(next));
        } catch (err) {
          parent.errors.push({ subject: key, message: `checking out its new spec: ${(err as Error).message}` });
          continue;
        }
        for (const reader of readersOf(key))
          queue.push({
            obj: reader,
            via: `reads ${key} (changed by Kustomization ${parent.namespace}/${parent.name})`,
          });
        for (const r of rendered)
          if (r !== obj && FOLLOWED.has(r.kind) && r.kind !== "GitRepository") {
            const k = objectKey(r);
            if (newest.has(k) && sourceKeyOf(ctx, newest.get(k) as Planned) === key)
              queue.push({ obj: newest.get(k) as Planned, via });
          }
        continue;
      }
      queue.push({ obj: next as Planned, via: `${via}${current ? " (spec changed)" : " (new)"}` });
    }
    const kept = new Set(rendered.map(objectKey));
    for (const id of previous) {
      const m = parseInventoryId(id);
      if (!["Kustomization", "HelmRelease", "FleetKustomization", "FleetHelmRelease"].includes(m.kind)) continue;
      if (!kept.has(keyOf(m.kind, m.namespace, m.name)))
        parent.notes.push(
          `${m.kind} ${m.namespace}/${m.name} is deleted by this change: what it applied is removed with it (unless its deletion policy keeps it)`,
        );
    }
  };

  const fanOut = async <P extends FleetParent>(kind: ChildKind<P>, parent: P, via: string) => {
    const ns = parent.metadata.namespace!;
    const isFk = parent.kind === "FleetKustomization";
    const liveChildren = isFk ? state.kustomizations : state.helmReleases;
    let dir: string | undefined;
    const fk = parent as unknown as FleetKustomization;
    if (isFk && fk.spec.fallbackPath) {
      const ref = fk.spec.template.spec.sourceRef;
      dir =
        ctx.overrides.get(keyOf(ref.kind, ref.namespace ?? ns, ref.name)) ??
        (await ctx.backend.artifactDir(ref.kind, ref.namespace ?? ns, ref.name).catch(() => undefined));
    }
    const { wanted, removed } = fleetChildren(kind, parent, state.clusters, liveChildren, dir);
    const parentVia = `${parent.kind} ${ns}/${parent.metadata.name}`;
    const notes = parent.spec.rollout
      ? [`${parentVia} rolls out in stages: this cluster applies it when its stage reaches the new revision`]
      : [];
    for (const w of wanted) {
      if (!w.child) {
        const p = emptyAppPlan(
          `${ns}/${w.cluster}`,
          kind.child.kind as "Kustomization",
          ns,
          `${parent.metadata.name}-${w.cluster}`,
          `${parentVia} (${via})`,
        );
        p.errors.push({ message: w.error! });
        record(`${kind.child.kind}/${ns}/${p.name}`, p);
        continue;
      }
      const plan = isFk
        ? (await planKustomization(ctx, w.child as unknown as Kustomization, `${parentVia} (${via})`)).plan
        : await planHelmRelease(ctx, w.child as unknown as HelmRelease, `${parentVia} (${via})`);
      plan.notes.push(...notes);
      record(objectKey(w.child), plan);
    }
    for (const child of removed) {
      const p = emptyAppPlan(
        clusterKeyOf(child as unknown as App, ctx.bySecret),
        kind.child.kind as "Kustomization",
        ns,
        child.metadata.name,
        `${parentVia}: cluster no longer selected`,
      );
      const inv = (child.status as { inventory?: { entries: { id: string }[] } } | undefined)?.inventory?.entries ?? [];
      p.prune.push(
        ...inv.map((e) => {
          const m = parseInventoryId(e.id);
          return m.namespace ? `${m.kind}/${m.namespace}/${m.name}` : `${m.kind}/${m.name}`;
        }),
      );
      if (!isFk) p.notes.push("the release is uninstalled with its HelmRelease");
      record(objectKey(child), p);
    }
  };

  while (queue.length) {
    const { obj, via } = queue.shift()!;
    const key = objectKey(obj);
    const n = (visits.get(key) ?? 0) + 1;
    if (n > MAX_VISITS) continue;
    visits.set(key, n);
    if (obj.kind === "Kustomization") {
      const ks = obj as Kustomization;
      const { plan, rendered } = await planKustomization(ctx, ks, via);
      record(key, plan);
      if (!ks.spec.kubeConfig)
        await follow(
          plan,
          rendered,
          (ks.status?.inventory?.entries ?? []).map((e) => e.id),
        );
    } else if (obj.kind === "HelmRelease") record(key, await planHelmRelease(ctx, obj as HelmRelease, via));
    else if (obj.kind === "FleetKustomization") await fanOut(fleetKustomizationKind, obj as FleetKustomization, via);
    else await fanOut(fleetHelmReleaseKind, obj as FleetHelmRelease, via);
  }
  return [...results.values()];
}
