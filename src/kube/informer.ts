// A shared informer: a local cache of one kind kept current by a Watcher, with change handlers
// and indexes (e.g. Kustomizations by source), so controllers read from memory, not the apiserver.
import type { Cluster } from "./cluster.js";
import type { KubeObject } from "../api/meta/object.js";
import { InformerSyncError } from "./errors.js";
import { type WatchEvent, Watcher, type WatchTarget } from "./watch.js";

export type IndexFunc = (obj: KubeObject) => string[];

export interface InformerHandlers {
  add?(obj: KubeObject): void;
  update?(oldObj: KubeObject, newObj: KubeObject): void;
  delete?(obj: KubeObject): void;
}

const cacheKey = (obj: { metadata: { name: string; namespace?: string } }) =>
  obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata.name;

export class Informer {
  private readonly store = new Map<string, KubeObject>();
  private readonly indexers = new Map<string, IndexFunc>();
  private readonly indexes = new Map<string, Map<string, Set<string>>>();
  private readonly handlers: InformerHandlers[] = [];
  private readonly watcher: Watcher;
  private synced = false;
  /** Called with nothing once synced, or with the reason it never will (stopped). */
  private syncWaiters: ((err?: Error) => void)[] = [];
  private stopped = false;
  lastError?: unknown;

  constructor(
    private readonly cluster: Cluster,
    private readonly target: WatchTarget,
  ) {
    this.watcher = new Watcher(cluster, target, {
      onSync: (items) => this.replace(items),
      onEvent: (e) => this.handle(e),
      onError: (err) => (this.lastError = err),
    });
  }

  addHandlers(h: InformerHandlers): void {
    this.handlers.push(h);
    // Late subscribers see what is already cached, as client-go's do.
    for (const obj of this.store.values()) h.add?.(obj);
  }

  addIndex(name: string, fn: IndexFunc): void {
    this.indexers.set(name, fn);
    const index = new Map<string, Set<string>>();
    this.indexes.set(name, index);
    for (const [key, obj] of this.store) for (const v of fn(obj)) this.indexAdd(index, v, key);
  }

  start(): void {
    this.watcher.start();
  }

  stop(): Promise<void> {
    // A start still waiting for the first list must not wait out its timeout (a SIGTERM while starting).
    this.stopped = true;
    for (const w of this.syncWaiters.splice(0)) w(this.stoppedError());
    return this.watcher.stop();
  }

  /** "HelmChart.source.toolkit.fluxcd.io in namespace x": what a sync failure names. */
  private what(): string {
    const { gvk, namespace, labelSelector } = this.target;
    return [
      `${gvk.kind}${gvk.group ? `.${gvk.group}` : ""}`,
      namespace ? ` in namespace ${namespace}` : "",
      labelSelector ? ` (${labelSelector})` : "",
    ].join("");
  }

  private stoppedError(): InformerSyncError {
    return new InformerSyncError(`informer of ${this.what()} stopped before it synced`, this.cluster.name, true);
  }

  hasSynced(): boolean {
    return this.synced;
  }

  waitForSync(timeoutMs = 60_000): Promise<void> {
    if (this.synced) return Promise.resolve();
    if (this.stopped) return Promise.reject(this.stoppedError());
    return new Promise((resolve, reject) => {
      const waiter = (err?: Error) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      };
      // A waiter that timed out leaves the list: callers that retry do not pile up behind a sync.
      const timer = setTimeout(() => {
        this.syncWaiters = this.syncWaiters.filter((w) => w !== waiter);
        reject(
          new InformerSyncError(
            `informer of ${this.what()} did not sync within ${timeoutMs} ms${this.lastError ? `: ${(this.lastError as Error).message}` : ""}`,
            this.cluster.name,
          ),
        );
      }, timeoutMs);
      this.syncWaiters.push(waiter);
    });
  }

  get(name: string, namespace?: string): KubeObject | undefined {
    return this.store.get(namespace ? `${namespace}/${name}` : name);
  }

  list(): KubeObject[] {
    return [...this.store.values()];
  }

  byIndex(name: string, value: string): KubeObject[] {
    const keys = this.indexes.get(name)?.get(value) ?? new Set();
    return [...keys].map((k) => this.store.get(k)!).filter(Boolean);
  }

  private indexAdd(index: Map<string, Set<string>>, value: string, key: string) {
    let set = index.get(value);
    if (!set) index.set(value, (set = new Set()));
    set.add(key);
  }

  private reindex(key: string, oldObj: KubeObject | undefined, newObj: KubeObject | undefined): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indexes.get(name)!;
      for (const v of oldObj ? fn(oldObj) : []) index.get(v)?.delete(key);
      for (const v of newObj ? fn(newObj) : []) this.indexAdd(index, v, key);
    }
  }

  private upsert(obj: KubeObject): void {
    const key = cacheKey(obj);
    const old = this.store.get(key);
    this.store.set(key, obj);
    this.reindex(key, old, obj);
    for (const h of this.handlers) {
      if (old) h.update?.(old, obj);
      else h.add?.(obj);
    }
  }

  private remove(obj: KubeObject): void {
    const key = cacheKey(obj);
    const old = this.store.get(key);
    this.store.delete(key);
    this.reindex(key, old, undefined);
    for (const h of this.handlers) h.delete?.(old ?? obj);
  }

  /** A fresh list: objects gone since the last state are deleted, the rest added or updated. */
  private replace(items: KubeObject[]): void {
    const fresh = new Set(items.map(cacheKey));
    for (const [key, obj] of [...this.store]) if (!fresh.has(key)) this.remove(obj);
    for (const obj of items) {
      const old = this.store.get(cacheKey(obj));
      if (old?.metadata.resourceVersion !== obj.metadata.resourceVersion) this.upsert(obj);
    }
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
  }

  private handle(event: WatchEvent): void {
    if (event.type === "DELETED") this.remove(event.object);
    else this.upsert(event.object);
  }
}
