// The fleet kept in memory by watches on the management cluster: the Clusters, the Kustomizations and
// HelmReleases, the fleet parents. The dashboard's pages and `flotilla status -w` read from here (no
// request per view) and hear of every change. Kinds whose CRD is not served (the fleet kinds on a plain
// Flux cluster), or that the identity may not list, are absent. The Flux Operator's kinds are watched only
// when asked (the dashboard does; `flotilla status -w` does not need them).
import { apiVersionOf, SERVED_KINDS, type ServedKind, storageVersion } from "../../api/kinds.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { Cluster } from "../../kube/cluster.js";
import { Informer } from "../../kube/informer.js";
import { ForbiddenError } from "../../kube/errors.js";
import { pathOf } from "../../api/paths.js";

export const CORE_KINDS = [
  "Cluster",
  "Kustomization",
  "HelmRelease",
  "FleetKustomization",
  "FleetHelmRelease",
] as const;
/** The Flux Operator's kinds a dashboard shows (the providers are read when a ResourceSet's page is opened). */
export const OPERATOR_KINDS = ["ResourceSet", "FluxInstance", "FluxReport"] as const;
export const WATCHED = [...CORE_KINDS, ...OPERATOR_KINDS] as const;
export type WatchedKind = (typeof WATCHED)[number];

export interface Change {
  kind: WatchedKind;
  namespace?: string;
  name: string;
}

export class FleetCache {
  private readonly informers = new Map<WatchedKind, Informer>();
  private readonly listeners: ((c: Change) => void)[] = [];

  private constructor(private readonly cluster: Cluster) {}

  /** Starts a watch per served kind and waits until each has listed once. */
  static async start(
    cluster: Cluster,
    namespace?: string,
    log?: (line: string) => void,
    kinds: readonly WatchedKind[] = CORE_KINDS,
  ): Promise<FleetCache> {
    const cache = new FleetCache(cluster);
    try {
      for (const kind of kinds) {
        const entry: ServedKind = SERVED_KINDS[kind];
        const gvk = { group: entry.group, version: storageVersion(entry), kind };
        const served = await cluster.discovery.mapping(gvk).then(
          () => true,
          () => false,
        );
        if (!served) continue;
        // A kind this identity may not list is left out (and said), rather than a watch that never syncs.
        const listable = await cluster.client.get(pathOf(entry, namespace), { limit: 1 }).then(
          () => true,
          (err: unknown) => {
            if (!(err instanceof ForbiddenError)) throw err;
            log?.(`not showing ${kind}s: ${err.message}`);
            return false;
          },
        );
        if (!listable) continue;
        const informer = new Informer(cluster, { gvk, ...(namespace ? { namespace } : {}) });
        const changed = (o: KubeObject) =>
          cache.emit({
            kind,
            name: o.metadata.name,
            ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}),
          });
        informer.addHandlers({ add: changed, update: (_old, o) => changed(o), delete: changed });
        informer.start();
        cache.informers.set(kind, informer);
      }
      await Promise.all([...cache.informers.values()].map((i) => i.waitForSync(60_000)));
    } catch (err) {
      await cache.stop(); // no watch left running behind a failed start
      throw err;
    }
    return cache;
  }

  /** Every cached object of a kind, with its kind and apiVersion (list items carry neither). */
  list<T extends KubeObject = KubeObject>(kind: WatchedKind): T[] {
    const apiVersion = apiVersionOf(SERVED_KINDS[kind]);
    return (this.informers.get(kind)?.list() ?? []).map((o) => ({ ...o, apiVersion, kind }) as T);
  }

  get<T extends KubeObject = KubeObject>(kind: WatchedKind, namespace: string, name: string): T | undefined {
    const o = this.informers.get(kind)?.get(name, namespace);
    return o && ({ ...o, apiVersion: apiVersionOf(SERVED_KINDS[kind]), kind } as T);
  }

  serves(kind: WatchedKind): boolean {
    return this.informers.has(kind);
  }

  onChange(fn: (c: Change) => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  private emit(c: Change): void {
    for (const l of this.listeners) l(c);
  }

  get client() {
    return this.cluster.client;
  }

  /** The management cluster with its discovery (what the controllers' own readers take). */
  get kube(): Cluster {
    return this.cluster;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }
}
