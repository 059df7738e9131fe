// A ResourceSet in the plan: rendered by the controller's own code (controllers/resourceset/render.ts —
// inputs, providers, templates, commonMetadata, the fleet Clusters it targets) and dry-run where each part
// would go, as the identity the controller uses, writing nothing. One AppPlan per target: its own cluster,
// or each selected fleet Cluster (decision 0048), plus one for each target it would leave (all pruned).
import type { FleetCluster } from "../../api/fleet/cluster.js";
import type { Inventory } from "../../api/meta/inventory.js";
import type { ResourceSet } from "../../api/operator/resourceset.js";
import { ownerOf, RESOURCESET_FIELD_MANAGER } from "../../controllers/resourceset/apply-targets.js";
import { clusterTarget } from "../../controllers/resourceset/cluster-targets.js";
import { convertKubeConfigResources, copyResources } from "../../controllers/resourceset/copy-from.js";
import { renderResourceSet } from "../../controllers/resourceset/render.js";
import { isForced } from "../../controllers/resourceset/status.js";
import type { Cluster } from "../../kube/cluster.js";
import { inventoryId, parseInventoryId, Redactor, ResourceManager } from "../../ssa/index.js";
import type { AppOutcome } from "./backend.js";
import { fill } from "./fill.js";
import type { PlanContext } from "./app-plans.js";
import { type AppPlan, emptyAppPlan } from "./types.js";

const MANAGEMENT = "management";
/** `Kind/ns/name` of an inventory id (as the Kustomization's plan names its prunes). */
const subjectOf = (id: string) => {
  const m = parseInventoryId(id);
  return m.namespace ? `${m.kind}/${m.namespace}/${m.name}` : `${m.kind}/${m.name}`;
};
const all = (inv: Inventory | undefined) => (inv?.entries ?? []).map((e) => subjectOf(e.id));

/** The online backend's planResourceSet: render on the management cluster, dry-run on each target. */
export async function planResourceSetOnline(
  management: Cluster,
  r: ResourceSet,
  redactor: Redactor,
  defaultServiceAccount: string | undefined,
): Promise<{ cluster?: FleetCluster | string; outcome: AppOutcome }[]> {
  const rendered = await renderResourceSet(management, r);
  const ns = r.metadata.namespace!;
  const sa = r.spec.serviceAccountName ?? defaultServiceAccount;
  const before = r.status?.clusterInventories ?? [];
  const out: { cluster?: FleetCluster | string; outcome: AppOutcome }[] = [];
  for (const t of rendered.targets) {
    const target = t.cluster
      ? await clusterTarget(management, t.cluster, r, defaultServiceAccount)
      : sa
        ? management.asServiceAccount(ns, sa)
        : management;
    // copyFrom and convertKubeConfigFrom only read: the plan shows the data the apply would write.
    await copyResources(target, t.objects);
    await convertKubeConfigResources(target, t.objects);
    redactor.addObjects(t.objects);
    const previous = t.cluster
      ? before.find((e) => e.cluster === t.cluster!.metadata.name)?.inventory
      : r.status?.inventory;
    const entries = await new ResourceManager(target, {
      fieldManager: RESOURCESET_FIELD_MANAGER,
      owner: ownerOf(r),
      force: isForced(r),
      previousInventory: previous ?? { entries: [] },
    }).plan(t.objects, redactor);
    const kept = new Set(entries.map((e) => inventoryId(e)));
    const deleted = (previous?.entries ?? []).filter((e) => !kept.has(e.id)).map((e) => subjectOf(e.id));
    out.push({ cluster: t.cluster, outcome: { entries, deleted } });
  }
  // Targets it would leave: its own cluster when it now targets Clusters, Clusters no longer selected.
  if (rendered.clusterMode && r.status?.inventory?.entries.length)
    out.push({ outcome: { entries: [], deleted: all(r.status.inventory) } });
  const selected = new Set(rendered.targets.map((t) => t.cluster?.metadata.name));
  for (const e of before)
    if (!selected.has(e.cluster))
      out.push({ cluster: `${ns}/${e.cluster}`, outcome: { entries: [], deleted: all(e.inventory) } });
  return out;
}

/** The AppPlans of one ResourceSet (a render that fails is one AppPlan's error, on its own cluster). */
export async function planResourceSet(ctx: PlanContext, r: ResourceSet, via: string): Promise<AppPlan[]> {
  const ns = r.metadata.namespace!;
  const planFor = (cluster: string) => emptyAppPlan(cluster, "ResourceSet", ns, r.metadata.name, via);
  const redactor = new Redactor();
  if (!ctx.backend.planResourceSet) {
    const plan = planFor(MANAGEMENT);
    plan.errors.push({
      message:
        "an offline plan cannot render a ResourceSet: its inputs, providers and target Clusters are read from the cluster; plan it online",
    });
    return [plan];
  }
  try {
    const outcomes = await ctx.backend.planResourceSet(r, redactor);
    return outcomes.map(({ cluster, outcome }) => {
      const key =
        cluster === undefined
          ? MANAGEMENT
          : typeof cluster === "string"
            ? cluster
            : `${cluster.metadata.namespace}/${cluster.metadata.name}`;
      const plan = fill(planFor(key), outcome);
      if (typeof cluster === "string")
        plan.notes.push("no longer selected: what the ResourceSet applied there is pruned");
      return plan;
    });
  } catch (err) {
    const plan = planFor(MANAGEMENT);
    plan.errors.push({ message: redactor.redact((err as Error).message ?? String(err)) });
    return [plan];
  }
}
