// Drift put back in seconds (decision 0026), for any kind that records an inventory and labels what
// it applies (Kustomization, HelmRelease): the objects each owner's inventory names are watched
// (metadata only) on the cluster it applies to, and an edit by someone else or a deletion queues the
// owner at once instead of at its next interval. Its normal reconcile puts the object back: one
// writer, with its own rules, as ever.
import type { Inventory } from "../../api/meta/inventory.js";
import type { KubeObject } from "../../api/meta/object.js";
import { Cluster } from "../../kube/cluster.js";
import { fingerprintOf } from "../../kube/cluster-pool.js";
import { ForbiddenError, UnauthorizedError } from "../../kube/errors.js";
import type { Controller } from "../../runtime/controller.js";
import { parseInventoryId } from "../../ssa/inventory.js";
import { parseDuration } from "../../util/duration.js";
import { ownersOfSecret, secretRewritten } from "../kit/kubeconfig-secret-watch.js";
import { type Targeting, targetCluster } from "../kit/target-cluster.js";
import { OwnerDebounce, OwnerSerial } from "./owner-debounce.js";
import { type DriftChange, freshOwner, ownerDue } from "./owner-due.js";
import type { Exemption, Own } from "./trigger-rules.js";
import { DriftWatchSet, type WantedKind, type WatchedCluster } from "./watch-set.js";

/** What differs between the kinds that own applied objects. */
export interface OwnerKind {
  /** Owner labels on every applied object: `<labelGroup>/name`, `<labelGroup>/namespace`. */
  labelGroup: string;
  /** The managedFields entry of the owner's writes: a change counts only if it lost fields. */
  own: Own;
  /** Its reconcile would not put drift back now (suspended, deleting, correction off). */
  idle(owner: KubeObject): boolean;
  /** Objects its reconcile leaves alone (opt-out labels or annotations). */
  exemption: Exemption;
}

/** A burst of changes within this long is one reconcile. */
const DEBOUNCE_MS = 1000;
/** The longest a change waits while another writer keeps fighting the owner (or its interval). */
const MAX_BACKOFF_MS = 5 * 60_000;
/** A remote cluster refusing our credential re-reads its kubeconfig Secrets at most this often. */
const REREAD_SECRETS_MS = 30_000;

type Owner = KubeObject & Targeting & { spec: { interval?: string }; status?: { inventory?: Inventory } };

/** The kinds an inventory holds, each with the namespaces of its objects ("" for cluster-scoped ones). */
export function inventoryKinds(inventory: Inventory | undefined): WantedKind[] {
  const kinds = new Map<string, WantedKind & { namespaces: string[] }>();
  for (const e of inventory?.entries ?? []) {
    try {
      const { group, kind, namespace } = parseInventoryId(e.id);
      const key = `${group}/${e.v}/${kind}`;
      let k = kinds.get(key);
      if (!k) kinds.set(key, (k = { group, version: e.v, kind, namespaces: [] }));
      if (!k.namespaces.includes(namespace)) k.namespaces.push(namespace);
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
  const secretsReread = new Map<string, number>();
  let stopped = false;

  const ownerRef = (key: string) => {
    const [namespace, name] = key.split("/") as [string, string];
    const { group, version, kind: k } = controller.options.kind;
    return { apiVersion: group ? `${group}/${version}` : version, kind: k, metadata: { name, namespace } };
  };
  const due = ownerDue<Owner>({
    log,
    baseDelayMs: DEBOUNCE_MS,
    cached,
    fresh: freshOwner((key) => local.get(ownerRef(key)), log),
    idle: (o) => kind.idle(o),
    clusterOf: (key) => watches.clusterOf(key),
    enqueue: (key) => controller.queue.add(key),
    stopped: () => stopped,
  });
  const intervalOf = (key: string) => {
    try {
      return parseDuration(cached(key)?.spec?.interval ?? "");
    } catch {
      return MAX_BACKOFF_MS;
    }
  };
  /** Owners whose due check runs now (between the debounce and the queue). */
  const judging = new Set<string>();
  const debounce = new OwnerDebounce<DriftChange>({
    delayMs: DEBOUNCE_MS,
    maxDelayMs: (key) => Math.min(MAX_BACKOFF_MS, intervalOf(key)),
    busy: (key) => controller.queue.isProcessing(key),
    due: async (key, ...rest) => {
      judging.add(key);
      try {
        return await due(key, ...rest);
      } finally {
        judging.delete(key);
      }
    },
  });
  /** Nothing of this owner is on its way: no change waiting, being judged, queued or reconciling. */
  const quiet = (key: string) =>
    !debounce.has(key) && !judging.has(key) && !controller.queue.isQueued(key) && !controller.queue.isProcessing(key);
  // One resolution at a time per owner. Never rejected: a failure must neither end the process nor
  // hold up later resolutions or stop().
  const resolving = new OwnerSerial((key, err) =>
    log.error("drift watch: resolving the owner's watches failed", { owner: key, error: String(err) }),
  );

  const watches = new DriftWatchSet({
    labelGroup: kind.labelGroup,
    own: kind.own,
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
    onScoped: (target, gvk) =>
      log.info("drift watch: not allowed to watch cluster-wide, watching per namespace", {
        cluster: target.name,
        kind: `${gvk.group}/${gvk.version}/${gvk.kind}`,
      }),
    onLimit: (target, what) => log.info("drift watch limit reached", { cluster: target.name, limit: what }),
    // Per event, so only at debug: tests wait for the line of their own write instead of sleeping.
    onJudged: ({ owner, ...judged }) =>
      log.debug("drift: judged", { owner, ...judged, ...(owner ? { quiet: quiet(owner) } : {}) }),
  });

  const sync = (obj: KubeObject) => {
    const owner = obj as Owner;
    const key = keyOf(owner);
    const kinds = kindsOf(owner);
    const from = JSON.stringify([owner.spec?.kubeConfig ?? null, kinds]);
    if (resolvedFrom.get(key) === from) return;
    resolvedFrom.set(key, from);
    void resolving.run(key, async () => {
      if (stopped || resolvedFrom.get(key) !== from) return; // superseded
      let target: WatchedCluster | undefined;
      try {
        if (kinds.length) target = await watchTarget(local, owner);
      } catch (err) {
        log.debug("drift watch: no target cluster", { owner: key, error: (err as Error).message });
      }
      if (stopped || resolvedFrom.get(key) !== from) return;
      // No Secret yet, a bad kubeconfig: its reconcile says so; tried again at its next status change.
      if (kinds.length && !target) resolvedFrom.delete(key);
      try {
        watches.want(key, target, target ? kinds : []);
      } catch (err) {
        resolvedFrom.delete(key);
        throw err;
      }
      // Said once its watches have listed: from then on an edit or a deletion is put back in seconds
      // (tests wait for this line instead of sleeping). Not awaited: an unreachable cluster never lists.
      if (target)
        void watches.listed(key).then(() => {
          if (!stopped && resolvedFrom.get(key) === from)
            log.info("drift watch: listed", { owner: key, cluster: target.name, kinds: kinds.length });
        });
    });
  };

  // A rewritten kubeconfig Secret moves its owners' watches to the new credential at once, before any
  // 401/403 (decision 0044): resolving again claims the new credential, which closes the old connection.
  const secrets = controller.watchedInformer("", "Secret");
  const secretRewrittenNow = (secret: KubeObject) => {
    const owners = ownersOfSecret(controller, secret);
    if (owners.length)
      log.info("drift watch: kubeconfig Secret rewritten, watching with its new credential", {
        secret: `${secret.metadata.namespace}/${secret.metadata.name}`,
        owners: owners.length,
      });
    for (const key of owners) {
      resolvedFrom.delete(key);
      const owner = cached(key);
      if (owner) sync(owner);
    }
  };
  secrets?.addHandlers({
    // Before the first list, every Secret is "added": the owners resolve on their own then.
    add: (s) => secrets.hasSynced() && secretRewrittenNow(s),
    update: (o, n) => secretRewritten(o, n) && secretRewrittenNow(n),
  });

  controller.informer.addHandlers({
    add: sync,
    update: (_, n) => sync(n),
    delete: (o) => {
      const key = keyOf(o);
      resolvedFrom.delete(key);
      debounce.forget(key);
      due.forget(key);
      try {
        watches.want(key, undefined, []);
      } catch (err) {
        log.error("drift watch: releasing the owner's watches failed", { owner: key, error: String(err) });
      }
    },
  });
  controller.attach({
    stop: async () => {
      stopped = true;
      debounce.stop();
      await resolving.settled();
      await watches.stop();
    },
  });
}
