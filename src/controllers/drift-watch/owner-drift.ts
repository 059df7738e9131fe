// Drift put back in seconds (decision 0026), for any kind that records an inventory and labels what
// it applies (Kustomization, HelmRelease): the objects each owner's inventory names are watched
// (metadata only) on the cluster it applies to, and an edit by someone else or a deletion queues the
// owner at once instead of at its next interval. Its normal reconcile puts the object back: one
// writer, with its own rules, as ever.
import type { Inventory } from "../../api/meta/inventory.js";
import type { GroupVersionKind, KubeObject } from "../../api/meta/object.js";
import { Cluster } from "../../kube/cluster.js";
import { fingerprintOf } from "../../kube/cluster-pool.js";
import { ForbiddenError, UnauthorizedError } from "../../kube/errors.js";
import { recentWrites } from "../../kube/recent-writes.js";
import type { Controller } from "../../runtime/controller.js";
import { parseInventoryId } from "../../ssa/inventory.js";
import { type Targeting, targetCluster } from "../kustomization/target-cluster.js";
import type { Change } from "./kind-watch.js";
import { OwnerDebounce } from "./owner-debounce.js";
import type { Exemption } from "./trigger-rules.js";
import { DriftWatchSet, type WatchedCluster } from "./watch-set.js";

/** What differs between the kinds that own applied objects. */
export interface OwnerKind {
  /** Owner labels on every applied object: `<labelGroup>/name`, `<labelGroup>/namespace`. */
  labelGroup: string;
  /** The manager the owner's writes use (an entry of it that moved is its own write). */
  fieldManager: string;
  /** Its reconcile would not put drift back now (suspended, deleting, correction off). */
  idle(owner: KubeObject): boolean;
  /** Objects its reconcile leaves alone (opt-out labels or annotations). */
  exemption: Exemption;
}

/** A burst of changes within this long is one reconcile. */
const DEBOUNCE_MS = 1000;
/** A remote cluster refusing our credential re-reads its kubeconfig Secrets at most this often. */
const REREAD_SECRETS_MS = 30_000;

type Owner = KubeObject & Targeting & { status?: { inventory?: Inventory } };
type DriftChange = Change & { cluster: string };

/** The kinds an inventory holds. */
export function inventoryKinds(inventory: Inventory | undefined): GroupVersionKind[] {
  const kinds = new Map<string, GroupVersionKind>();
  for (const e of inventory?.entries ?? []) {
    try {
      const { group, kind } = parseInventoryId(e.id);
      kinds.set(`${group}/${e.v}/${kind}`, { group, version: e.v, kind });
    } catch {
      // an entry flotilla did not write: not watched
    }
  }
  return [...kinds.values()];
}

/**
 * Where to watch: the management cluster as the controller itself, or the kubeConfig Secret's
 * cluster with its own credential (no impersonation: one watch serves every owner there).
 */
async function watchTarget(local: Cluster, owner: Owner): Promise<WatchedCluster> {
  const kubeConfig = owner.spec.kubeConfig;
  if (!kubeConfig) return { key: fingerprintOf(local.client.endpoint), cluster: local, name: local.name };
  const remote = await targetCluster(local, { metadata: owner.metadata, spec: { kubeConfig } }, undefined);
  return {
    key: fingerprintOf(remote.client.endpoint),
    cluster: new Cluster(remote.client.endpoint),
    name: `secret ${owner.metadata.namespace}/${kubeConfig.secretRef?.name}`,
  };
}

export function watchOwnerDrift(controller: Controller, local: Cluster, kind: OwnerKind): void {
  const log = controller.options.log.with({ controller: controller.options.name, component: "drift-watch" });
  const keyOf = (o: KubeObject) => `${o.metadata.namespace}/${o.metadata.name}`;
  const cached = (key: string) => {
    const [namespace, name] = key.split("/") as [string, string];
    return controller.informer.get(name, namespace) as Owner | undefined;
  };
  const kindsOf = (o: Owner) => (kind.idle(o) ? [] : inventoryKinds(o.status?.inventory));
  /** Per owner, what its watches were resolved from: re-resolved only when that changes. */
  const resolvedFrom = new Map<string, string>();
  const resolving = new Map<string, Promise<void>>();
  const secretsReread = new Map<string, number>();
  let stopped = false;

  const due = (key: string, changes: DriftChange[], overflow: boolean) => {
    const owner = cached(key);
    if (stopped || !owner || kind.idle(owner)) return;
    const cluster = watches.clusterOf(key);
    const inventory = new Set(owner.status?.inventory?.entries.map((e) => e.id));
    // Our own writes and prunes, and objects the inventory no longer names, are not drift.
    const drift = changes.filter(
      (c) =>
        c.cluster === cluster &&
        inventory.has(c.id) &&
        !(c.type === "MODIFIED" && recentWrites.has(c.uid, c.resourceVersion)),
    );
    if (!drift.length && !overflow) return;
    log.info("drift: reconciling now", {
      namespace: owner.metadata.namespace,
      name: owner.metadata.name,
      changes: drift.slice(0, 5).map((c) => `${c.id} ${c.why}`),
      ...(drift.length > 5 ? { more: drift.length - 5 } : {}),
    });
    controller.queue.add(key);
  };
  const debounce = new OwnerDebounce<DriftChange>(DEBOUNCE_MS, (key) => controller.queue.isProcessing(key), due);

  const watches = new DriftWatchSet({
    labelGroup: kind.labelGroup,
    fieldManager: kind.fieldManager,
    exemption: kind.exemption,
    onChange: (change) => debounce.add(change.owner, `${change.cluster}|${change.id}`, change),
    onError: (target, gvk, err, first) => {
      const fields = { cluster: target.name, kind: `${gvk.group}/${gvk.version}/${gvk.kind}`, error: String(err) };
      if (first) log.info("drift watch failing, retrying with backoff", fields);
      else log.debug("drift watch still failing", fields);
      // A rotated credential: read the kubeconfig Secrets of that cluster's owners again.
      if ((err instanceof UnauthorizedError || err instanceof ForbiddenError) && target.cluster !== local) {
        if (Date.now() - (secretsReread.get(target.key) ?? 0) < REREAD_SECRETS_MS) return;
        secretsReread.set(target.key, Date.now());
        for (const key of watches.ownersOn(target.key)) {
          resolvedFrom.delete(key);
          const owner = cached(key);
          if (owner) sync(owner);
        }
      }
    },
    onLimit: (target, what) => log.info("drift watch limit reached", { cluster: target.name, limit: what }),
  });

  const sync = (obj: KubeObject) => {
    const owner = obj as Owner;
    const key = keyOf(owner);
    const kinds = kindsOf(owner);
    const from = JSON.stringify([owner.spec?.kubeConfig ?? null, kinds]);
    if (resolvedFrom.get(key) === from) return;
    resolvedFrom.set(key, from);
    // One resolution at a time per owner; a superseded one is skipped.
    const next = (resolving.get(key) ?? Promise.resolve()).then(async () => {
      if (stopped || resolvedFrom.get(key) !== from) return;
      if (!kinds.length) return watches.want(key, undefined, []);
      try {
        const target = await watchTarget(local, owner);
        if (!stopped && resolvedFrom.get(key) === from) watches.want(key, target, kinds);
      } catch (err) {
        // No Secret yet, a bad kubeconfig: its reconcile says so; tried again at its next status change.
        if (resolvedFrom.get(key) === from) resolvedFrom.delete(key);
        watches.want(key, undefined, []);
        log.debug("drift watch: no target cluster", { owner: key, error: (err as Error).message });
      }
    });
    resolving.set(key, next);
    void next.finally(() => resolving.get(key) === next && resolving.delete(key));
  };

  controller.informer.addHandlers({
    add: sync,
    update: (_, n) => sync(n),
    delete: (o) => {
      resolvedFrom.delete(keyOf(o));
      watches.want(keyOf(o), undefined, []);
    },
  });
  controller.attach({
    stop: async () => {
      stopped = true;
      debounce.stop();
      await Promise.all(resolving.values());
      await watches.stop();
    },
  });
}
