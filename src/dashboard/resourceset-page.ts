// What a ResourceSet's page adds to an app page: its input groups — one for its own cluster, or one per
// fleet Cluster the target-clusters annotation selects (decision 0048) — computed with the controller's
// own code (controllers/resourceset: providers, Flatten/Permute, cluster groups) when the page is opened,
// the inventory per target, and the ResourceSetInputProviders it reads with their exported inputs count and
// next schedule. Reads per view: the providers it names or selects and, in cluster mode, one list of Clusters.
// Inputs may hold anything a user put there (tokens, addresses), so an input shows its id, where it came
// from and its keys — never a value. A provider's URL shows scheme and host; its Secrets are never read.
import type { FleetCluster } from "../api/fleet/cluster.js";
import type { ResourceSet } from "../api/operator/resourceset.js";
import type { ResourceSetInputProvider } from "../api/operator/resourceset-input-provider.js";
import { getCondition } from "../runtime/conditions.js";
import { MANAGEMENT } from "../fleet/status/fleet-view.js";
import type { FleetCache } from "../fleet/status/fleet-cache.js";
import {
  clusterInputs,
  clusterKey,
  clusterSelectorOf,
  selectedClusters,
} from "../controllers/resourceset/cluster-targets.js";
import { combineInputs, type InputSet, orderProviders } from "../controllers/resourceset/inputs.js";
import { exported, findProviders, ownInputs } from "../controllers/resourceset/providers.js";
import { redactedAddress } from "../controllers/notification/send.js";
import { inventoryTree } from "./inventory-tree.js";

/** Inputs listed per group: a Permute can make 10,000; the rest are counted. */
export const SHOWN_INPUTS = 100;

export interface InputRow {
  index: number;
  id: string;
  /** Kind/name of who exported it (the ResourceSet itself, a provider, a Cluster). */
  from: string;
  /** Its keys, never their values. */
  keys: string[];
}

export interface InputGroup {
  target: string;
  count: number;
  inputs: InputRow[];
}

export interface ProviderRow {
  name: string;
  type: string;
  ready: string;
  reason: string;
  message: string;
  address: string;
  exportedInputs: number;
  lastExportedRevision: string;
  nextSchedule?: string;
}

/** An input set for display: id, origin and key names only (see the top of this file). */
export function inputRow(set: InputSet, index: number): InputRow {
  const p = set.provider as { kind?: string; name?: string } | undefined;
  const id = set.id;
  return {
    index,
    id: typeof id === "string" || typeof id === "number" ? String(id) : "",
    from: p ? `${p.kind}/${p.name}` : "",
    keys: Object.keys(set)
      .filter((k) => k !== "id" && k !== "provider")
      .sort(),
  };
}

export const inputGroup = (target: string, sets: InputSet[]): InputGroup => ({
  target,
  count: sets.length,
  inputs: sets.slice(0, SHOWN_INPUTS).map(inputRow),
});

export function providerRow(p: ResourceSetInputProvider): ProviderRow {
  const ready = getCondition(p.status?.conditions, "Ready");
  const next = (p.status as { nextSchedule?: { when?: string } } | undefined)?.nextSchedule?.when;
  return {
    name: p.metadata.name,
    type: p.spec.type,
    ready: ready?.status ?? "Unknown",
    reason: ready?.reason ?? "",
    message: ready?.message ?? "",
    address: p.spec.url ? redactedAddress(p.spec.url) : "",
    exportedInputs: p.spec.type === "Static" ? 1 : (p.status?.exportedInputs?.length ?? 0),
    lastExportedRevision: p.status?.lastExportedRevision ?? "",
    ...(next ? { nextSchedule: next } : {}),
  };
}

/** The inventory per target: the ResourceSet's own, then each fleet Cluster's. */
export function inventories(r: ResourceSet) {
  const ns = r.metadata.namespace ?? "";
  const own = r.status?.inventory?.entries ?? [];
  return [
    ...(own.length ? [{ target: MANAGEMENT, tree: inventoryTree(own.map((e) => e.id)) }] : []),
    ...(r.status?.clusterInventories ?? []).map((c) => ({
      target: `${ns}/${c.cluster}`,
      tree: inventoryTree(c.inventory.entries.map((e) => e.id)),
    })),
  ];
}

export async function resourceSetDetails(cache: FleetCache, r: ResourceSet) {
  let providers: ResourceSetInputProvider[] = [];
  let groups: InputGroup[] = [];
  let inputsError: string | undefined;
  try {
    providers = await findProviders(cache.kube, r);
    const own = ownInputs(r);
    const strategy = r.spec.inputStrategy?.name ?? "Flatten";
    const sets = combineInputs(
      strategy,
      orderProviders(own, providers.map(exported)),
      r.spec.inputStrategy?.includeEmptyProviders,
    );
    const selector = clusterSelectorOf(r);
    if (selector === undefined) groups = [inputGroup(MANAGEMENT, sets)];
    else {
      const clusters: FleetCluster[] = await selectedClusters(cache.kube, r, selector);
      groups = clusters.map((c) => inputGroup(clusterKey(c), clusterInputs(sets, c, r)));
    }
  } catch (err) {
    // The controller's own message (it names the provider, the annotation or the input), shown in place.
    inputsError = (err as Error).message;
  }
  return {
    strategy: r.spec.inputStrategy?.name ?? "Flatten",
    groups,
    ...(inputsError ? { inputsError } : {}),
    providers: providers.map(providerRow),
    inventories: inventories(r),
  };
}
