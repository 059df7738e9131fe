// A thin Kubernetes REST client on undici: bodies go to the server untouched (no typed serializer
// that could drop unknown fields), one connection pool and one rate limiter per cluster+credential
// shared by the whole process, and failures become the typed errors of ./errors.ts.
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, type Dispatcher, ProxyAgent, request } from "undici";
import { type DynamicCredential, ExecCredential, TokenFile } from "./credentials.js";
import { type ApiStatus, apiErrorFrom, ConnectionError, TooManyRequestsError } from "./errors.js";
import type { ClusterEndpoint } from "./kubeconfig.js";
import { DEFAULT_RATE_LIMIT, type RateLimit, TokenBucket } from "./rate-limiter.js";

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
}

interface Connection {
  dispatcher: Dispatcher;
  limiter: TokenBucket;
}

const connections = new Map<string, Connection>();
const tokenFiles = new Map<string, TokenFile>();
const execCredentials = new Map<string, ExecCredential>();
let defaultRateLimit: RateLimit = DEFAULT_RATE_LIMIT;

/** QPS/burst for connections created from now on (the controllers' --kube-api-qps/--kube-api-burst). */
export function setDefaultRateLimit(limit: RateLimit): void {
  defaultRateLimit = limit;
}

/** Identity of a cluster+credential: never the user *name*, which many kubeconfigs share. */
function credentialKey(endpoint: ClusterEndpoint, dynamic?: DynamicCredential): string {
  const h = createHash("sha256");
  const parts = [
    endpoint.server,
    endpoint.caPem,
    endpoint.certPem ?? dynamic?.certPem,
    endpoint.keyPem ?? dynamic?.keyPem,
    endpoint.token,
    endpoint.tokenFile,
    endpoint.exec ? JSON.stringify(endpoint.exec) : undefined,
    endpoint.tlsServerName,
    endpoint.proxyUrl,
    String(endpoint.insecureSkipTlsVerify ?? false),
  ];
  for (const part of parts) h.update(part ?? "").update("\0");
  return h.digest("hex");
}

function connectionFor(endpoint: ClusterEndpoint, dynamic?: DynamicCredential): Connection {
  const key = credentialKey(endpoint, dynamic);
  let conn = connections.get(key);
  if (!conn) {
    const connect = {
      ca: endpoint.caPem,
      cert: endpoint.certPem ?? dynamic?.certPem,
      key: endpoint.keyPem ?? dynamic?.keyPem,
      servername: endpoint.tlsServerName,
      rejectUnauthorized: !endpoint.insecureSkipTlsVerify,
    };
    const dispatcher = endpoint.proxyUrl
      ? new ProxyAgent({ uri: endpoint.proxyUrl, requestTls: connect })
      : new Agent({ connect, connections: 32, keepAliveTimeout: 30_000, pipelining: 1 });
    conn = { dispatcher, limiter: new TokenBucket(defaultRateLimit) };
    connections.set(key, conn);
  }
  return conn;
}

/** Closes every pooled connection (process shutdown, tests). */
export async function closeAllConnections(): Promise<void> {
  const all = [...connections.values()];
  connections.clear();
  await Promise.allSettled(all.map((c) => c.dispatcher.close()));
}

const MAX_THROTTLE_RETRIES = 5;

/** Requests sent by this process, by method (`PATCH` and `PATCH dryRun` counted apart), for metrics and tests. */
export const requestCounts = new Map<string, number>();

function count(method: string, url: URL): void {
  const key = url.searchParams.has("dryRun") ? `${method} dryRun` : method;
  requestCounts.set(key, (requestCounts.get(key) ?? 0) + 1);
}

export class KubeClient {
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

  /** Credentials that may change over time (rotated token file, exec plugin). */
  private async dynamicCredential(): Promise<DynamicCredential | undefined> {
    const { tokenFile, exec } = this.endpoint;
    if (exec) {
      const key = `${this.endpoint.server}\0${JSON.stringify(exec)}`;
      let cred = execCredentials.get(key);
      if (!cred) execCredentials.set(key, (cred = new ExecCredential(exec, this.cluster)));
      return cred.get();
    }
    if (tokenFile) {
      let file = tokenFiles.get(tokenFile);
      if (!file) tokenFiles.set(tokenFile, (file = new TokenFile(tokenFile)));
      return { token: file.read() };
    }
    return undefined;
  }

  private headers(dynamic?: DynamicCredential): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = { accept: "application/json" };
    const token = this.endpoint.token ?? dynamic?.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (this.impersonate) {
      headers["impersonate-user"] = this.impersonate.user;
      if (this.impersonate.groups?.length) headers["impersonate-group"] = this.impersonate.groups;
    }
    return headers;
  }

  private async send(method: string, url: URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
    const dynamic = await this.dynamicCredential();
    const conn = connectionFor(this.endpoint, dynamic);
    const headers = this.headers(dynamic);
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
      headers["content-type"] = options.contentType ?? "application/json";
    }
    await conn.limiter.take();
    count(method, url);
    try {
      return await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        dispatcher: conn.dispatcher,
        headersTimeout: options.timeoutMs ?? 60_000,
        bodyTimeout: options.timeoutMs ?? 60_000,
      });
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
    // Paths are absolute API paths; a server URL may carry a prefix (e.g. behind a proxy).
    const url = new URL(this.endpoint.server.replace(/\/$/, "") + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = this.url(path, options.query);
    for (let attempt = 0; ; attempt++) {
      const response = await this.send(method, url, options);
      const text = await response.body.text();
      if (response.statusCode < 400) {
        const type = String(response.headers["content-type"] ?? "");
        return (type.includes("json") && text ? JSON.parse(text) : text) as T;
      }
      const error = this.errorFrom(method, url, response, text);
      // Throttled (429, or APF rejecting): wait as told, a bounded number of times.
      if (error instanceof TooManyRequestsError && attempt < MAX_THROTTLE_RETRIES) {
        await sleep(Math.min(error.retryAfterSeconds ?? 1, 10) * 1000);
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
  async stream(path: string, query: Query, signal?: AbortSignal): Promise<Dispatcher.ResponseData> {
    const url = this.url(path, query);
    const dynamic = await this.dynamicCredential();
    const conn = connectionFor(this.endpoint, dynamic);
    const headers = this.headers(dynamic);
    await conn.limiter.take();
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: "GET",
        headers,
        dispatcher: conn.dispatcher,
        signal,
        bodyTimeout: 0,
        headersTimeout: 60_000,
      });
    } catch (err) {
      throw this.unreachable(err);
    }
    if (response.statusCode >= 400) throw this.errorFrom("GET", url, response, await response.body.text());
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
  ): Promise<{ items: T[]; resourceVersion: string }> {
    const items: T[] = [];
    let cont: string | undefined;
    let resourceVersion = "";
    do {
      const page = await this.get<{ items: T[]; metadata: { continue?: string; resourceVersion: string } }>(path, {
        ...query,
        limit: pageSize,
        continue: cont,
      });
      items.push(...page.items);
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
