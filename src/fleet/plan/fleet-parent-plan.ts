// A fleet parent planned per cluster: each selected Cluster's child as the fan-out would write it, planned
// like any Kustomization or HelmRelease on that cluster (a child that cannot be built is that cluster's
// error); a live child whose cluster is no longer selected shows everything it applied as pruned.
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { ChildKind, FleetParent } from "../children/child-kind.js";
import { type App, clusterKeyOf } from "../status/fleet-view.js";
import { type PlanContext, planHelmRelease, planKustomization } from "./app-plans.js";
import { fleetChildren } from "./fleet-children.js";
import { keyOf, objectKey } from "./management-state.js";
import { subjectOf } from "./online-backend.js";
import { type AppPlan, emptyAppPlan } from "./types.js";
import { mapSettled } from "../../util/map-settled.js";

/** Children of one parent planned at once (one per cluster). */
const CHILD_CONCURRENCY = 8;

export async function planFleetParent<P extends FleetParent>(
  ctx: PlanContext,
  kind: ChildKind<P>,
  parent: P,
  via: string,
): Promise<{ key: string; plan: AppPlan }[]> {
  const out: { key: string; plan: AppPlan }[] = [];
  const ns = parent.metadata.namespace!;
  const isFk = parent.kind === "FleetKustomization";
  const liveChildren = isFk ? ctx.state.kustomizations : ctx.state.helmReleases;
  let dir: string | undefined;
  let filesError: string | undefined;
  const fk = parent as unknown as FleetKustomization;
  if (isFk && fk.spec.fallbackPath) {
    const ref = fk.spec.template.spec.sourceRef;
    // Which clusters fall back depends on the files: without them every child is that cluster's error.
    try {
      dir =
        ctx.overrides.get(keyOf(ref.kind, ref.namespace ?? ns, ref.name)) ??
        (await ctx.backend.artifactDir(ref.kind, ref.namespace ?? ns, ref.name));
    } catch (err) {
      filesError = `spec.fallbackPath needs the source's files: ${(err as Error).message}`;
    }
  }
  const children = fleetChildren(kind, parent, ctx.state.clusters, liveChildren, dir);
  const { removed } = children;
  const wanted = filesError ? children.wanted.map((w) => ({ cluster: w.cluster, error: filesError })) : children.wanted;
  const parentVia = `${parent.kind} ${ns}/${parent.metadata.name}`;
  const notes: string[] = parent.spec.rollout
    ? [`${parentVia} rolls out in stages: this cluster applies it when its stage reaches the new revision`]
    : [];
  if (parent.spec.suspend) notes.push(`${parentVia} is suspended: the fan-out changes no child until it is resumed`);
  const planned = await mapSettled(wanted, CHILD_CONCURRENCY, async (w) => {
    if (!w.child) {
      const p = emptyAppPlan(
        `${ns}/${w.cluster}`,
        kind.child.kind as "Kustomization",
        ns,
        `${parent.metadata.name}-${w.cluster}`,
        `${parentVia} (${via})`,
      );
      p.errors.push({ message: w.error! });
      return { key: `${kind.child.kind}/${ns}/${p.name}`, plan: p };
    }
    const plan = isFk
      ? (await planKustomization(ctx, w.child as unknown as Kustomization, `${parentVia} (${via})`)).plan
      : await planHelmRelease(ctx, w.child as unknown as HelmRelease, `${parentVia} (${via})`);
    plan.notes.push(...notes);
    return { key: objectKey(w.child), plan };
  });
  for (const [i, p] of planned.entries()) {
    if (p.status === "fulfilled") {
      out.push(p.value);
      continue;
    }
    // That cluster's error, not the whole plan's.
    const cluster = wanted[i]!.cluster;
    const name = `${parent.metadata.name}-${cluster}`;
    const failed = emptyAppPlan(
      `${ns}/${cluster}`,
      kind.child.kind as "Kustomization",
      ns,
      name,
      `${parentVia} (${via})`,
    );
    failed.errors.push({ message: (p.reason as Error)?.message ?? String(p.reason) });
    out.push({ key: `${kind.child.kind}/${ns}/${name}`, plan: failed });
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
    p.prune.push(...inv.map((e) => subjectOf(e.id)));
    if (!isFk) p.notes.push("the release is uninstalled with its HelmRelease");
    out.push({ key: objectKey(child), plan: p });
  }

  return out;
}
