// A thin Kubernetes REST client on undici: bodies go to the server untouched (no typed serializer
// that could drop unknown fields), connections, rate limiters and credential caches taken from the
// process's cluster pool (./cluster-pool.ts), and failures become the typed errors of ./errors.ts.
import { setTimeout as sleep } from "node:timers/promises";
import { type Dispatcher, request } from "undici";
import { clusterPool, fingerprintOf, type PoolEntry } from "./cluster-pool.js";
import type { DynamicCredential } from "./credentials.js";
import { type ApiStatus, apiErrorFrom, ConnectionError, KubeError, TooManyRequestsError } from "./errors.js";
import type { ClusterEndpoint } from "./kubeconfig.js";
import type { RateLimit } from "./rate-limiter.js";
import { recentWrites } from "./recent-writes.js";
import { untilAborted } from "../util/until-aborted.js";

export type PatchType = "merge" | "json" | "strategic" | "apply";

const PATCH_CONTENT_TYPE: Record<PatchType, string> = {
  merge: "application/merge-patch+json",
  json: "application/json-patch+json",
  strategic: "application/strategic-merge-patch+json",
  apply: "application/apply-patch+yaml",
};

export interface Impersonation {
  user: string;
  groups?: string[];
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  contentType?: string;
  /** Milliseconds before the request is abandoned. */
  timeoutMs?: number;
  /** Accept header (default application/json), e.g. metadata-only lists. */
  accept?: string;
  /** Abandons the request at once when aborted (a watcher stopping while its list is in flight). */
  signal?: AbortSignal;
}

/** QPS/burst for connections created from now on (the controllers' --kube-api-qps/--kube-api-burst). */
export function setDefaultRateLimit(limit: RateLimit): void {
  clusterPool.rateLimit = limit;
}

/** Closes every pooled connection (process shutdown, tests). */
export function closeAllConnections(): Promise<void> {
  return clusterPool.closeAll();
}

const MAX_THROTTLE_RETRIES = 5;

const WRITES = new Set(["POST", "PUT", "PATCH"]);

/**
 * Requests sent by this process, by method (`PATCH` and `PATCH dryRun` counted apart), for metrics and
 * tests. Watch streams are not counted.
 */
export const requestCounts = new Map<string, number>();

function count(method: string, url: URL): void {
  const key = url.searchParams.has("dryRun") ? `${method} dryRun` : method;
  requestCounts.set(key, (requestCounts.get(key) ?? 0) + 1);
}

export class KubeClient {
  private entry?: PoolEntry;
  private fingerprint?: string;

  constructor(
    readonly endpoint: ClusterEndpoint,
    readonly impersonate?: Impersonation,
  ) {}

  get cluster(): string {
    return this.endpoint.name;
  }

  /** The same cluster and credentials, acting as another user (RBAC impersonation). */
  as(impersonate: Impersonation): KubeClient {
    return new KubeClient(this.endpoint, impersonate);
  }

  /** This client's pool entry; once the pool has closed it, the open one of the same cluster+credential. */
  get connection(): PoolEntry {
    if (!this.entry || this.entry.closed) {
      this.entry = clusterPool.acquire(this.endpoint, (this.fingerprint ??= fingerprintOf(this.endpoint)));
    }
    return this.entry;
  }

  private headers(dynamic?: DynamicCredential, accept = "application/json"): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = { accept };
    const token = this.endpoint.token ?? dynamic?.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (this.impersonate) {
      headers["impersonate-user"] = this.impersonate.user;
      if (this.impersonate.groups?.length) headers["impersonate-group"] = this.impersonate.groups;
    }
    return headers;
  }

  /** Sends one request on `entry`, which the caller has begun (so the pool lets it finish). */
  private async send(
    entry: PoolEntry,
    method: string,
    url: URL,
    options: RequestOptions & { stream?: boolean },
  ): Promise<Dispatcher.ResponseData> {
    const dynamic = await entry.credential();
    const headers = this.headers(dynamic, options.accept);
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
      headers["content-type"] = options.contentType ?? "application/json";
    }
    await entry.limiterFor(url.pathname).take();
    options.signal?.throwIfAborted();
    if (!options.stream) count(method, url);
    try {
      const sent = request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        dispatcher: entry.dispatcher(dynamic, options.stream),
        signal: options.signal,
        headersTimeout: options.timeoutMs ?? 60_000,
        bodyTimeout: options.stream ? 0 : (options.timeoutMs ?? 60_000),
      });
      // undici honours a signal only once connected: a request still making its connection (a TLS
      // handshake the cluster never answers) would hold a stop until the connect timeout.
      return await (options.signal ? untilAborted(sent, options.signal, (late) => late.body.destroy()) : sent);
    } catch (err) {
      throw this.unreachable(err);
    }
  }

  private unreachable(err: unknown): ConnectionError {
    const cause = err as Error & { code?: string };
    return new ConnectionError(
      `cluster ${this.cluster} (${this.endpoint.server}) unreachable: ${cause.code ?? cause.name}: ${cause.message}`,
      this.cluster,
      { cause: err },
    );
  }

  url(path: string, query?: Query): URL {
    // URL parsing resolves '.' and '..' segments (also escaped, %2e), which would turn an object's path
    // into its parent's — a ConfigMap named '..' into its Namespace; client-go refuses such names too.
    const dotSegment = path
      .split("?")[0]!
      .split("/")
      .find((s) => /^(\.|%2e){1,2}$/i.test(s));
    if (dotSegment !== undefined)
      throw new KubeError(
        `refusing the request path ${path}: '${dotSegment}' is not a valid object name or namespace`,
        this.cluster,
      );
    // Paths are absolute API paths; a server URL may carry a prefix (e.g. behind a proxy).
    const url = new URL(this.endpoint.server.replace(/\/$/, "") + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = this.url(path, options.query);
    for (let attempt = 0; ; attempt++) {
      const entry = this.connection;
      entry.begin();
      let response: Dispatcher.ResponseData;
      let text: string;
      try {
        response = await this.send(entry, method, url, options);
        text = await response.body.text();
      } finally {
        entry.end();
      }
      if (response.statusCode < 400) {
        const type = String(response.headers["content-type"] ?? "");
        const body = (type.includes("json") && text ? JSON.parse(text) : text) as T;
        // Writes and deletes are remembered, so watches can tell our own changes from other people's.
        if (!url.searchParams.has("dryRun")) {
          if (WRITES.has(method)) recentWrites.record(body);
          else if (method === "DELETE") recentWrites.recordDelete(path, body);
        }
        return body;
      }
      const error = this.errorFrom(method, url, response, text);
      // Throttled (429, or APF rejecting): wait as told, a bounded number of times.
      if (error instanceof TooManyRequestsError && attempt < MAX_THROTTLE_RETRIES) {
        await sleep(Math.min(error.retryAfterSeconds ?? 1, 10) * 1000, undefined, { signal: options.signal });
        continue;
      }
      throw error;
    }
  }

  private errorFrom(method: string, url: URL, response: Dispatcher.ResponseData, text: string) {
    let status: ApiStatus;
    try {
      status = JSON.parse(text) as ApiStatus;
    } catch {
      status = { message: `${method} ${url.pathname}: HTTP ${response.statusCode}: ${text.slice(0, 200)}` };
    }
    const retryAfter = Number(response.headers["retry-after"]);
    if (Number.isFinite(retryAfter) && status.details?.retryAfterSeconds === undefined) {
      status.details = { ...status.details, retryAfterSeconds: retryAfter };
    }
    return apiErrorFrom(this.cluster, response.statusCode, status, { method, path: url.pathname });
  }

  /** A streaming GET (watch): the caller consumes and closes the body. */
  async stream(path: string, query: Query, signal?: AbortSignal, accept?: string): Promise<Dispatcher.ResponseData> {
    const url = this.url(path, query);
    const entry = this.connection;
    entry.begin();
    let response: Dispatcher.ResponseData;
    try {
      response = await this.send(entry, "GET", url, { signal, stream: true, accept });
      if (response.statusCode >= 400) throw this.errorFrom("GET", url, response, await response.body.text());
    } catch (err) {
      entry.end();
      throw err;
    }
    // The stream keeps its entry in use (never idle, never closed under it) until the body closes.
    response.body.once("close", () => entry.end());
    return response;
  }

  get<T = unknown>(path: string, query?: Query): Promise<T> {
    return this.request<T>("GET", path, { query });
  }

  /** Lists every page of a collection (`limit`/`continue`), returning all items and the list's resourceVersion. */
  async listAll<T = unknown>(
    path: string,
    query: Query = {},
    pageSize = 500,
    accept?: string,
    signal?: AbortSignal,
  ): Promise<{ items: T[]; resourceVersion: string }> {
    const items: T[] = [];
    let cont: string | undefined;
    let resourceVersion = "";
    do {
      const page = await this.request<{ items: T[] | null; metadata: { continue?: string; resourceVersion: string } }>(
        "GET",
        path,
        { query: { ...query, limit: pageSize, continue: cont }, accept, signal },
      );
      // A PartialObjectMetadataList of nothing comes back as `items: null` (Go's nil slice): no Secrets at
      // all on a fresh plane, listed metadata-only, must be an empty list, not a failed informer sync.
      items.push(...(page.items ?? []));
      cont = page.metadata.continue || undefined;
      resourceVersion = page.metadata.resourceVersion;
    } while (cont);
    return { items, resourceVersion };
  }

  create<T = unknown>(collectionPath: string, object: unknown, query?: Query): Promise<T> {
    return this.request<T>("POST", collectionPath, { body: object, query });
  }

  update<T = unknown>(path: string, object: unknown, query?: Query): Promise<T> {
    return this.request<T>("PUT", path, { body: object, query });
  }

  delete<T = unknown>(
    path: string,
    propagationPolicy: "Foreground" | "Background" | "Orphan" = "Background",
    query?: Query,
  ): Promise<T> {
    return this.request<T>("DELETE", path, {
      body: { kind: "DeleteOptions", apiVersion: "v1", propagationPolicy },
      query,
    });
  }

  patch<T = unknown>(path: string, type: PatchType, patch: unknown, query?: Query): Promise<T> {
    return this.request<T>("PATCH", path, { body: patch, contentType: PATCH_CONTENT_TYPE[type], query });
  }

  /** Server-side apply of one object at its own path (append `/status` for the status subresource). */
  apply<T = unknown>(
    path: string,
    object: unknown,
    fieldManager: string,
    opts: { force?: boolean; dryRun?: boolean } = {},
  ): Promise<T> {
    return this.patch<T>(path, "apply", object, {
      fieldManager,
      force: opts.force ? true : undefined,
      dryRun: opts.dryRun ? "All" : undefined,
    });
  }
}
