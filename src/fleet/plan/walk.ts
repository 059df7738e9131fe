// Which apps a change reaches, recursively: every Kustomization, HelmRelease, FleetKustomization and
// FleetHelmRelease reading a replaced source; then whatever a planned Kustomization renders onto the
// management cluster — a Kustomization, HelmRelease or fleet parent whose spec changes is planned with
// the new spec, a GitRepository whose spec changes is checked out and its readers planned, an app the
// render drops is named as deleted. A ResourceSet (the Flux Operator's) a render adds or changes is planned
// where it applies (resourceset-plan.ts). Each app appears once, with the newest spec the walk found.
import type { FleetHelmRelease } from "../../api/fleet/fleet-helmrelease.js";
import type { FleetKustomization } from "../../api/fleet/fleet-kustomization.js";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { ResourceSet } from "../../api/operator/resourceset.js";
import { KUSTOMIZATION_FIELD_MANAGER } from "../../controllers/kustomization/render-apply.js";
import { isProvablyUnchanged, parseInventoryId } from "../../ssa/index.js";
import { deepEqual } from "../../ssa/drift.js";
import { fleetHelmReleaseKind } from "../fleethelmrelease/kind.js";
import { fleetKustomizationKind } from "../fleetkustomization/kind.js";
import { type PlanContext, planHelmRelease, planKustomization } from "./app-plans.js";
import { planFleetParent } from "./fleet-parent-plan.js";
import { planResourceSet } from "./resourceset-plan.js";
import { keyOf, objectKey } from "./management-state.js";
import { isFleetChild, type Planned, sourceKeyOf } from "./readers.js";
import { mapSettled } from "../../util/map-settled.js";
import { type AppPlan, emptyAppPlan } from "./types.js";

const FOLLOWED = new Set([
  "Kustomization",
  "HelmRelease",
  "FleetKustomization",
  "FleetHelmRelease",
  "GitRepository",
  "OCIRepository",
  "ResourceSet",
]);
const followedGroup = (o: KubeObject) =>
  o.kind === "ResourceSet"
    ? o.apiVersion.startsWith("fluxcd.controlplane.io/")
    : o.apiVersion.includes("toolkit.fluxcd.io") || o.apiVersion.startsWith("fleet.flotilla.dev");
const PLANNED_KINDS = ["Kustomization", "HelmRelease", "FleetKustomization", "FleetHelmRelease", "ResourceSet"];
/** A render that keeps rewriting one object (a loop through sources) stops here. */
const MAX_VISITS = 8;

/** Apps planned at once (each a render and a dry-run of its objects, on its own cluster). */
const PLAN_CONCURRENCY = 8;

type Spec = { spec?: Record<string, unknown> };
type Item = { obj: Planned | ResourceSet; via: string };
type Outcome = { key: string; plan: AppPlan; follow?: { rendered: KubeObject[]; previous: string[] } };

function failedOutcome({ obj, via }: Item, err: unknown): Outcome {
  const kind =
    obj.kind === "HelmRelease" || obj.kind === "FleetHelmRelease"
      ? "HelmRelease"
      : obj.kind === "ResourceSet"
        ? "ResourceSet"
        : "Kustomization";
  const plan = emptyAppPlan(
    "management",
    kind,
    obj.metadata.namespace ?? "",
    obj.metadata.name,
    `${obj.kind} (${via})`,
  );
  plan.errors.push({ message: (err as Error)?.message ?? String(err) });
  return { key: objectKey(obj), plan };
}

export async function planFleet(ctx: PlanContext): Promise<AppPlan[]> {
  const { state } = ctx;
  const results = new Map<string, AppPlan>();
  const newest = new Map<string, KubeObject>();
  const visits = new Map<string, number>();
  const queue: Item[] = [];
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
      if (!FOLLOWED.has(obj.kind) || !followedGroup(obj)) continue;
      const key = objectKey(obj);
      const current =
        newest.get(key) ??
        live().find((o) => objectKey(o) === key) ??
        state.gitRepositories.find((o) => objectKey(o) === key) ??
        state.ociRepositories?.find((o) => objectKey(o) === key) ??
        state.resourceSets?.find((o) => objectKey(o) === key);
      // Unchanged only when provably so: what the render sets is there and nothing the controller applied
      // before was dropped (a removed patch or postBuild is a change); against an earlier render, equal specs.
      if (
        current &&
        (newest.has(key)
          ? deepEqual((obj as Spec).spec, (current as Spec).spec)
          : isProvablyUnchanged(obj, current, KUSTOMIZATION_FIELD_MANAGER))
      )
        continue;
      const next = {
        ...current,
        ...obj,
        metadata: { ...current?.metadata, ...obj.metadata },
        ...(current && "status" in current ? { status: current.status } : {}),
      } as KubeObject;
      const liveBefore = newest.has(key) ? undefined : current;
      newest.set(key, next);
      if (obj.kind === "OCIRepository") {
        // A new tag, digest or URL is an artifact the plan does not pull: said, never planned from the old one.
        const readers = readersOf(key).map((r) => `${r.kind} ${r.metadata.namespace}/${r.metadata.name}`);
        parent.notes.push(
          `${key} changes (${current ? "its spec" : "new"}): the plan does not pull OCI artifacts; ` +
            (readers.length ? `its readers (${readers.join(", ")}) are not planned` : "its readers are not planned") +
            `: plan them with --source ${key}=<a directory of the new artifact's files>`,
        );
        continue;
      }
      if (obj.kind === "GitRepository") {
        if (!ctx.backend.checkoutChanged) {
          parent.notes.push(
            `${key} changes (${current ? "its spec" : "new"}): an offline plan cannot check it out; its readers are not planned`,
          );
          continue;
        }
        try {
          const out = await ctx.backend.checkoutChanged(next, liveBefore);
          ctx.overrides.set(key, out.dir);
          if (out.note) parent.notes.push(out.note);
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
      queue.push({ obj: next as Planned | ResourceSet, via: `${via}${current ? " (spec changed)" : " (new)"}` });
    }
    const kept = new Set(rendered.map(objectKey));
    for (const id of previous) {
      const m = parseInventoryId(id);
      if (!PLANNED_KINDS.includes(m.kind)) continue;
      if (!kept.has(keyOf(m.kind, m.namespace, m.name)))
        parent.notes.push(
          `${m.kind} ${m.namespace}/${m.name} is deleted by this change: what it applied is removed with it (unless its deletion policy keeps it)`,
        );
    }
  };

  /** One app planned; a Kustomization applying to the management cluster says what to follow. */
  const planOne = async ({ obj, via }: Item): Promise<Outcome[]> => {
    const key = objectKey(obj);
    if (obj.kind === "Kustomization") {
      const ks = obj as Kustomization;
      const { plan, rendered } = await planKustomization(ctx, ks, via);
      const previous = (ks.status?.inventory?.entries ?? []).map((e) => e.id);
      return [{ key, plan, ...(ks.spec.kubeConfig ? {} : { follow: { rendered, previous } }) }];
    }
    if (obj.kind === "ResourceSet")
      return (await planResourceSet(ctx, obj as ResourceSet, via)).map((plan) => ({ key, plan }));
    if (obj.kind === "HelmRelease") return [{ key, plan: await planHelmRelease(ctx, obj as HelmRelease, via) }];
    return obj.kind === "FleetKustomization"
      ? planFleetParent(ctx, fleetKustomizationKind, obj as FleetKustomization, via)
      : planFleetParent(ctx, fleetHelmReleaseKind, obj as FleetHelmRelease, via);
  };

  // In rounds: every app found so far planned concurrently, then what their renders reach, in order.
  while (queue.length) {
    const round = new Map<string, Item>();
    for (const item of queue.splice(0)) {
      const key = objectKey(item.obj);
      const n = (visits.get(key) ?? 0) + 1;
      if (n > MAX_VISITS) continue;
      visits.set(key, n);
      round.set(key, item); // the newest spec of an app queued twice
    }
    const items = [...round.values()];
    const settled = await mapSettled(items, PLAN_CONCURRENCY, planOne);
    for (const [i, s] of settled.entries()) {
      // An object the plan could not even start on (a rendered app without the fields it needs) is that
      // app's error: the rest of the plan goes on.
      const outcomes = s.status === "fulfilled" ? s.value : [failedOutcome(items[i]!, s.reason)];
      for (const p of outcomes) {
        record(p.key, p.plan);
        if (!p.follow) continue;
        try {
          await follow(p.plan, p.follow.rendered, p.follow.previous);
        } catch (err) {
          p.plan.errors.push({ message: `following what it renders: ${(err as Error).message}` });
        }
      }
    }
  }
  return [...results.values()];
}
