// One cluster as the rest of flotilla sees it: a client (possibly impersonating) plus the discovery
// of its cluster+credential, with operations on unstructured objects addressed by apiVersion/kind/name.
import { KubeClient, type Impersonation } from "./client.js";
import { clusterPool, type PoolEntry } from "./cluster-pool.js";
import { collectionPath, Discovery, objectPath, type ResourceMapping } from "./discovery.js";
import { NotFoundError } from "./errors.js";
import type { ClusterEndpoint } from "./kubeconfig.js";
import { gvkOf } from "./object.js";
import type { GroupVersionKind, KubeObject } from "../api/meta/object.js";

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
}

/** Discovery lives as long as its pool entry: when the pool closes the entry, its discovery goes too. */
const discoveries = new WeakMap<PoolEntry, Discovery>();

export class Cluster {
  readonly client: KubeClient;

  constructor(endpointOrClient: ClusterEndpoint | KubeClient) {
    this.client = endpointOrClient instanceof KubeClient ? endpointOrClient : new KubeClient(endpointOrClient);
  }

  /**
   * The cluster of a kubeconfig read under a name (e.g. `secret ns/name`, read again at each
   * reconcile). When it carries another credential than the last time, the pool closes the
   * connection of the old one and drops its discovery (ClusterPool.claim).
   */
  static claim(source: string, endpoint: ClusterEndpoint): Cluster {
    clusterPool.claim(source, endpoint);
    return new Cluster(endpoint);
  }

  get discovery(): Discovery {
    const entry = this.client.connection;
    let found = discoveries.get(entry);
    if (!found) {
      // Discovery reads as the credential itself, not as whoever this cluster impersonates.
      const reader = this.client.impersonate ? new KubeClient(this.client.endpoint) : this.client;
      discoveries.set(entry, (found = new Discovery(reader)));
    }
    return found;
  }

  get name(): string {
    return this.client.cluster;
  }

  /** The same cluster acting as a service account (`system:serviceaccount:<ns>:<name>`) or user. */
  as(impersonate: Impersonation): Cluster {
    return new Cluster(this.client.as(impersonate));
  }

  /**
   * The user alone, as Flux does: the API server adds a service account's groups itself, and asking for
   * them explicitly would need `impersonate` on groups cluster-wide, which a remote cluster's
   * credential scoped to its namespaces (or a tenant's own token) does not hold.
   */
  asServiceAccount(namespace: string, name: string): Cluster {
    return this.as({ user: `system:serviceaccount:${namespace}:${name}` });
  }

  mapping(ref: Pick<ObjectRef, "apiVersion" | "kind"> | GroupVersionKind): Promise<ResourceMapping> {
    return this.discovery.mapping("apiVersion" in ref ? gvkOf(ref) : ref);
  }

  async pathOf(ref: ObjectRef): Promise<string> {
    return objectPath(await this.mapping(ref), ref.metadata.name, ref.metadata.namespace);
  }

  /** The live object, or undefined when it does not exist. */
  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    try {
      return await this.client.get<KubeObject>(await this.pathOf(ref));
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  }

  async list(gvk: GroupVersionKind, namespace?: string, query: Record<string, string> = {}): Promise<KubeObject[]> {
    const m = await this.mapping(gvk);
    const { items } = await this.client.listAll<KubeObject>(collectionPath(m, namespace), query);
    // List items carry no apiVersion/kind; restore them so callers handle them like single objects.
    const apiVersion = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
    return items.map((o) => ({ ...o, apiVersion, kind: gvk.kind }));
  }

  async apply(
    obj: KubeObject,
    fieldManager: string,
    opts: { force?: boolean; dryRun?: boolean } = {},
  ): Promise<KubeObject> {
    return this.client.apply<KubeObject>(await this.pathOf(obj), obj, fieldManager, opts);
  }

  async delete(
    ref: ObjectRef,
    propagationPolicy: "Background" | "Foreground" | "Orphan" = "Background",
  ): Promise<void> {
    await this.client.delete(await this.pathOf(ref), propagationPolicy);
  }
}
