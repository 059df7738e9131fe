// Watches that never stop silently. One watch request is a stream of JSON lines; a Watcher keeps
// one running for as long as it is started: it lists first, resumes from the last resourceVersion
// it saw (bookmarks included) when the stream ends or the connection drops, lists again when the
// server answers 410 Gone, and backs off exponentially while the cluster is unreachable.
import { setTimeout as sleep } from "node:timers/promises";
import type { Cluster } from "./cluster.js";
import { collectionPath } from "./discovery.js";
import { type ApiStatus, apiErrorFrom, GoneError } from "./errors.js";
import type { GroupVersionKind, KubeObject } from "../api/meta/object.js";
import { untilAborted } from "../util/until-aborted.js";

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject;
}

export interface WatchTarget {
  gvk: GroupVersionKind;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /**
   * Objects as metadata only (PartialObjectMetadata: no spec, data or status — managedFields stay),
   * for watchers that must not hold whole objects; a server that cannot answers with whole ones.
   */
  metadataOnly?: boolean;
}

export interface WatcherHandlers {
  /** A full list: the complete current state (on start and after 410 Gone). */
  onSync(items: KubeObject[], resourceVersion: string): void;
  onEvent(event: WatchEvent): void;
  /** Connection problems, reported while the watcher keeps retrying. */
  onError?(err: unknown): void;
}

// The apiserver serves PartialObjectMetadata for watches and PartialObjectMetadataList for lists; the
// trailing plain JSON is what a server without it (an old aggregated API) answers instead.
const METADATA_WATCH = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";
const METADATA_LIST = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";

const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
/** Server-side timeout of one watch request; the watcher then resumes from where it was. */
const WATCH_TIMEOUT_SECONDS = 300;

/** Events of one watch request, until the server ends it. */
async function* watchOnce(
  cluster: Cluster,
  target: WatchTarget,
  resourceVersion: string,
  signal: AbortSignal,
): AsyncGenerator<WatchEvent> {
  const mapping = await untilAborted(cluster.mapping(target.gvk), signal);
  const response = await cluster.client.stream(
    collectionPath(mapping, target.namespace),
    {
      watch: 1,
      resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds: WATCH_TIMEOUT_SECONDS,
      labelSelector: target.labelSelector,
      fieldSelector: target.fieldSelector,
    },
    signal,
    target.metadataOnly ? METADATA_WATCH : undefined,
  );
  let buffer = "";
  const apiVersion = target.gvk.group ? `${target.gvk.group}/${target.gvk.version}` : target.gvk.version;
  for await (const chunk of response.body) {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line) continue;
      const event = JSON.parse(line) as WatchEvent;
      if (event.type === "ERROR") {
        const status = event.object as unknown as ApiStatus;
        throw apiErrorFrom(cluster.name, status.code ?? 500, status, {
          method: "WATCH",
          path: collectionPath(mapping, target.namespace),
        });
      }
      if (event.type !== "BOOKMARK") event.object = { ...event.object, apiVersion, kind: target.gvk.kind };
      yield event;
    }
  }
}

export class Watcher {
  private controller = new AbortController();
  private running?: Promise<void>;
  resourceVersion = "";

  constructor(
    private readonly cluster: Cluster,
    readonly target: WatchTarget,
    private readonly handlers: WatcherHandlers,
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.running?.catch(() => {});
  }

  private async list(signal: AbortSignal): Promise<void> {
    // Discovery is shared by every caller of the cluster: a stop lets this one go without cancelling it.
    const mapping = await untilAborted(this.cluster.mapping(this.target.gvk), signal);
    const query: Record<string, string> = {};
    if (this.target.labelSelector) query.labelSelector = this.target.labelSelector;
    if (this.target.fieldSelector) query.fieldSelector = this.target.fieldSelector;
    const { items, resourceVersion } = await this.cluster.client.listAll<KubeObject>(
      collectionPath(mapping, this.target.namespace),
      query,
      500,
      this.target.metadataOnly ? METADATA_LIST : undefined,
      signal, // a stop ends a list in flight at once, not after the request timeout
    );
    if (signal.aborted) return;
    const apiVersion = mapping.group ? `${mapping.group}/${mapping.version}` : mapping.version;
    this.resourceVersion = resourceVersion;
    this.handlers.onSync(
      items.map((o) => ({ ...o, apiVersion, kind: mapping.kind })),
      resourceVersion,
    );
  }

  private async loop(): Promise<void> {
    const signal = this.controller.signal;
    let needList = true;
    let backoff = INITIAL_BACKOFF_MS;
    while (!signal.aborted) {
      try {
        if (needList) {
          await this.list(signal);
          needList = false;
        }
        for await (const event of watchOnce(this.cluster, this.target, this.resourceVersion, signal)) {
          const rv = event.object.metadata?.resourceVersion;
          if (rv) this.resourceVersion = rv;
          if (event.type !== "BOOKMARK") this.handlers.onEvent(event);
          backoff = INITIAL_BACKOFF_MS;
        }
      } catch (err) {
        if (signal.aborted) return;
        if (err instanceof GoneError) {
          needList = true; // our resourceVersion is too old: start over from a fresh list
          continue;
        }
        this.handlers.onError?.(err);
        await sleep(backoff, undefined, { signal }).catch(() => {});
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }
}
