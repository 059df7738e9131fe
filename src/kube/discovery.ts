// REST mapping (group/version/kind → resource path and scope) from API discovery. Discovery is read
// lazily per group-version and cached per cluster; an unknown kind refreshes its group-version once
// (a CRD may have just been installed) before failing with Kubernetes' own "no matches" wording.
import { apiPath } from "../api/paths.js";
import type { KubeClient } from "./client.js";
import { KubeError, NotFoundError } from "./errors.js";
import type { GroupVersionKind } from "../api/meta/object.js";

export interface ResourceMapping extends GroupVersionKind {
  resource: string;
  namespaced: boolean;
  verbs: string[];
}

/** The kind is not served by the cluster (yet): no CRD, or the wrong version. */
export class NoMatchError extends KubeError {
  override name = "NoMatchError";
  constructor(cluster: string, gvk: GroupVersionKind) {
    const gv = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
    super(`${cluster}: no matches for kind "${gvk.kind}" in version "${gv}"`, cluster);
  }
}

interface ApiResource {
  name: string;
  kind: string;
  namespaced: boolean;
  verbs?: string[];
}

interface GroupVersionEntry {
  fetchedAt: number;
  byKind: Map<string, ResourceMapping>;
}

/** Minimum age of a cached group-version before a miss may refetch it. */
const REFRESH_AFTER_MS = 500;

export class Discovery {
  private cache = new Map<string, Promise<GroupVersionEntry>>();

  constructor(private readonly client: KubeClient) {}

  private fetch(group: string, version: string): Promise<GroupVersionEntry> {
    return this.client.get<{ resources: ApiResource[] }>(apiPath({ group, version })).then(
      (list) => {
        const byKind = new Map<string, ResourceMapping>();
        for (const r of list.resources) {
          if (r.name.includes("/")) continue; // subresources
          byKind.set(r.kind, {
            group,
            version,
            kind: r.kind,
            resource: r.name,
            namespaced: r.namespaced,
            verbs: r.verbs ?? [],
          });
        }
        return { fetchedAt: Date.now(), byKind };
      },
      (err) => {
        if (err instanceof NotFoundError) return { fetchedAt: Date.now(), byKind: new Map() };
        throw err;
      },
    );
  }

  private entry(group: string, version: string, refresh: boolean): Promise<GroupVersionEntry> {
    const key = `${group}/${version}`;
    let entry = this.cache.get(key);
    if (!entry || refresh) {
      entry = this.fetch(group, version);
      this.cache.set(key, entry);
      entry.catch(() => this.cache.delete(key));
    }
    return entry;
  }

  async mapping(gvk: GroupVersionKind): Promise<ResourceMapping> {
    let entry = await this.entry(gvk.group, gvk.version, false);
    let found = entry.byKind.get(gvk.kind);
    if (!found && Date.now() - entry.fetchedAt >= REFRESH_AFTER_MS) {
      entry = await this.entry(gvk.group, gvk.version, true);
      found = entry.byKind.get(gvk.kind);
    }
    if (!found) throw new NoMatchError(this.client.cluster, gvk);
    return found;
  }

  /**
   * Waits until the kind is served, refetching its group-version (for a CRD just applied: the
   * apiserver serves it a moment after the CRD reports Established).
   */
  async waitForMapping(gvk: GroupVersionKind, timeoutMs: number): Promise<ResourceMapping> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await this.entry(gvk.group, gvk.version, true)).byKind.get(gvk.kind);
      if (found) return found;
      if (Date.now() >= deadline) throw new NoMatchError(this.client.cluster, gvk);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Forget everything (e.g. after CRDs were removed). */
  invalidate(): void {
    this.cache.clear();
  }
}

/** Path of a collection (`namespace` ignored for cluster-scoped kinds). */
export function collectionPath(m: ResourceMapping, namespace?: string): string {
  return apiPath({ ...m, namespace: m.namespaced ? namespace : undefined });
}

export function objectPath(m: ResourceMapping, name: string, namespace?: string): string {
  return apiPath({ ...m, namespace: m.namespaced ? namespace : undefined, name });
}
