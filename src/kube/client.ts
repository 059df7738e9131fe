// A thin Kubernetes REST client on undici: bodies go to the server untouched (no typed serializer
// that could drop unknown fields), one connection pool per cluster+credential shared by the
// whole process, and failures become the typed errors of ./errors.ts.
import { createHash } from "node:crypto";
import { Agent, type Dispatcher, ProxyAgent, request } from "undici";
import { type ApiStatus, apiErrorFrom, ConnectionError } from "./errors.js";
import type { ClusterEndpoint } from "./kubeconfig.js";

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

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  /** Milliseconds before the request is abandoned. */
  timeoutMs?: number;
}

const pools = new Map<string, Dispatcher>();

function poolKey(endpoint: ClusterEndpoint): string {
  const h = createHash("sha256");
  for (const part of [
    endpoint.server,
    endpoint.caPem,
    endpoint.certPem,
    endpoint.keyPem,
    endpoint.token,
    endpoint.tlsServerName,
    endpoint.proxyUrl,
  ]) {
    h.update(part ?? "").update("\0");
  }
  return h.digest("hex");
}

function dispatcherFor(endpoint: ClusterEndpoint): Dispatcher {
  const key = poolKey(endpoint);
  let pool = pools.get(key);
  if (!pool) {
    const connect = {
      ca: endpoint.caPem,
      cert: endpoint.certPem,
      key: endpoint.keyPem,
      servername: endpoint.tlsServerName,
      rejectUnauthorized: !endpoint.insecureSkipTlsVerify,
    };
    pool = endpoint.proxyUrl
      ? new ProxyAgent({ uri: endpoint.proxyUrl, requestTls: connect })
      : new Agent({ connect, connections: 16, keepAliveTimeout: 30_000 });
    pools.set(key, pool);
  }
  return pool;
}

/** Closes every pooled connection (process shutdown, tests). */
export async function closeAllConnections(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.allSettled(all.map((p) => p.close()));
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

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    // Paths are absolute API paths; a server URL may carry a prefix (e.g. behind a proxy).
    const url = new URL(this.endpoint.server.replace(/\/$/, "") + path);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string | string[]> = { accept: "application/json" };
    if (this.endpoint.token) headers.authorization = `Bearer ${this.endpoint.token}`;
    if (this.impersonate) {
      headers["impersonate-user"] = this.impersonate.user;
      if (this.impersonate.groups?.length) headers["impersonate-group"] = this.impersonate.groups;
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
      headers["content-type"] = options.contentType ?? "application/json";
    }
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        dispatcher: dispatcherFor(this.endpoint),
        headersTimeout: options.timeoutMs ?? 60_000,
        bodyTimeout: options.timeoutMs ?? 60_000,
      });
    } catch (err) {
      const cause = err as Error & { code?: string };
      throw new ConnectionError(
        `cluster ${this.cluster} (${this.endpoint.server}) unreachable: ${cause.code ?? cause.name}: ${cause.message}`,
        this.cluster,
        { cause: err },
      );
    }
    const text = await response.body.text();
    if (response.statusCode >= 400) {
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
      throw apiErrorFrom(this.cluster, response.statusCode, status, { method, path: url.pathname });
    }
    const type = String(response.headers["content-type"] ?? "");
    return (type.includes("json") && text ? JSON.parse(text) : text) as T;
  }

  get<T = unknown>(path: string, query?: RequestOptions["query"]): Promise<T> {
    return this.request<T>("GET", path, { query });
  }

  create<T = unknown>(collectionPath: string, object: unknown): Promise<T> {
    return this.request<T>("POST", collectionPath, { body: object });
  }

  delete<T = unknown>(
    path: string,
    propagationPolicy: "Foreground" | "Background" | "Orphan" = "Background",
  ): Promise<T> {
    return this.request<T>("DELETE", path, { body: { kind: "DeleteOptions", apiVersion: "v1", propagationPolicy } });
  }

  patch<T = unknown>(path: string, type: PatchType, patch: unknown, query?: RequestOptions["query"]): Promise<T> {
    return this.request<T>("PATCH", path, { body: patch, contentType: PATCH_CONTENT_TYPE[type], query });
  }

  /** Server-side apply of one object at its own path. */
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
