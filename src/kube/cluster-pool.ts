// The one pool of cluster connections in a process. An entry per cluster+credential (server, CA,
// client certificate and key, token, token file, exec config, TLS and proxy settings — never the
// user *name*, which many kubeconfigs share) holds the connection, the rate limiter and the
// credential caches; a cluster's discovery is kept with its entry (cluster.ts). Entries go when
// nothing has used them for a while (Kamaji tenant planes come and go) and when the kubeconfig read
// under a name now carries another credential (a re-issued admin certificate): a long-running
// controller must not keep connections, discovery and credentials of clusters it no longer talks to.
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, type Dispatcher, ProxyAgent } from "undici";
import { type DynamicCredential, ExecCredential, TokenFile } from "./credentials.js";
import type { ClusterEndpoint } from "./kubeconfig.js";
import { DEFAULT_RATE_LIMIT, type RateLimit, rateLimitKey, TokenBucket } from "./rate-limiter.js";

/** How long a closing connection lets requests under way finish before it is destroyed. */
const CLOSE_GRACE_MS = 10_000;

/** Why an entry was closed: its name's kubeconfig moved to another credential, unused, or process end. */
export type CloseReason = "replaced" | "idle" | "shutdown";

const hashOf = (parts: (string | undefined)[]): string => {
  const h = createHash("sha256");
  for (const part of parts) h.update(part ?? "").update("\0");
  return h.digest("hex");
};

/** Identity of a cluster+credential (what the connection and the apiserver's view of us depend on). */
export function fingerprintOf(endpoint: ClusterEndpoint): string {
  return hashOf([
    endpoint.server,
    endpoint.caPem,
    endpoint.certPem,
    endpoint.keyPem,
    endpoint.token,
    endpoint.tokenFile,
    endpoint.exec ? JSON.stringify(endpoint.exec) : undefined,
    endpoint.tlsServerName,
    endpoint.proxyUrl,
    String(endpoint.insecureSkipTlsVerify ?? false),
  ]);
}

/** One cluster+credential: its connection (made on first request), rate limiters and credential caches. */
export class PoolEntry {
  /** One token bucket per API resource kind (rate-limiter.ts). */
  private readonly limiters = new Map<string, TokenBucket>();
  readonly sources = new Set<string>();
  /** Closed by the pool: clients holding it take a fresh entry for their next request. */
  closed = false;
  lastUsedAt: number;
  private inFlight = 0;
  private connection?: { certKey: string; dispatcher: Dispatcher; streams: Dispatcher };
  private tokenFile?: TokenFile;
  private exec?: ExecCredential;
  private readonly closeHandlers = new Set<() => void>();

  constructor(
    readonly fingerprint: string,
    readonly endpoint: ClusterEndpoint,
    private readonly pool: ClusterPool,
  ) {
    this.lastUsedAt = pool.now();
  }

  /** The token bucket a request to `pathname` draws from (its resource kind's). */
  limiterFor(pathname: string): TokenBucket {
    const key = rateLimitKey(pathname);
    let bucket = this.limiters.get(key);
    if (!bucket) this.limiters.set(key, (bucket = new TokenBucket(this.pool.rateLimit)));
    return bucket;
  }

  /** Holds an open connection (made at the first request, dropped when the entry is closed). */
  get connected(): boolean {
    return this.connection !== undefined;
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  /** Calls `fn` when the pool closes this entry (e.g. its credential was rotated): end your streams on it. */
  onClose(fn: () => void): void {
    if (this.closed) fn();
    else this.closeHandlers.add(fn);
  }

  /** The pool closed this entry: tell who asked. */
  notifyClosed(): void {
    for (const fn of this.closeHandlers) fn();
    this.closeHandlers.clear();
  }

  /** Marks a request (or a watch stream) as running: a running entry is never idle. */
  begin(): void {
    this.inFlight++;
    this.lastUsedAt = this.pool.now();
  }

  end(): void {
    this.inFlight--;
    this.lastUsedAt = this.pool.now();
    // A closed entry lets what already started finish, then lets its connection go.
    if (this.closed && this.inFlight === 0) void this.release();
  }

  /** Credentials that may change over time (rotated token file, exec plugin). */
  async credential(): Promise<DynamicCredential | undefined> {
    const { tokenFile, exec } = this.endpoint;
    if (exec) return (this.exec ??= new ExecCredential(exec, this.endpoint.name)).get();
    if (tokenFile) return { token: (this.tokenFile ??= new TokenFile(tokenFile)).read() };
    return undefined;
  }

  /**
   * The connection for the credential in use; an exec plugin's new client certificate gets a new one.
   * Watch streams (`stream`) get sockets of their own, without the requests' limit: over HTTP/1.1 each
   * open watch holds a socket for minutes, and a process watching many kinds (informers, the drift
   * watch) must never leave its requests — or an informer's next watch — waiting for a free socket.
   */
  dispatcher(dynamic?: DynamicCredential, stream = false): Dispatcher {
    const { endpoint } = this;
    const cert = endpoint.certPem ?? dynamic?.certPem;
    const key = endpoint.keyPem ?? dynamic?.keyPem;
    const certKey = hashOf([cert, key]);
    if (this.connection?.certKey !== certKey) {
      if (this.connection) void this.closeConnection(this.connection);
      const connect = {
        ca: endpoint.caPem,
        cert,
        key,
        servername: endpoint.tlsServerName,
        rejectUnauthorized: !endpoint.insecureSkipTlsVerify,
      };
      const agent = (connections?: number) =>
        endpoint.proxyUrl
          ? new ProxyAgent({ uri: endpoint.proxyUrl, requestTls: connect })
          : new Agent({ connect, connections, keepAliveTimeout: 30_000, pipelining: 1 });
      this.connection = { certKey, dispatcher: agent(32), streams: agent(undefined) };
    }
    return stream ? this.connection!.streams : this.connection!.dispatcher;
  }

  /** Drops the connection and the credential caches. Graceful: requests already sent complete. */
  async release(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    this.tokenFile = undefined;
    this.exec = undefined;
    if (connection) await this.closeConnection(connection);
  }

  /**
   * Requests under way may finish (for at most CLOSE_GRACE_MS); watch streams are cut at once: a graceful
   * close would wait for a watch to end on its own (minutes), and a watcher still needed reconnects.
   */
  private async closeConnection(connection: { dispatcher: Dispatcher; streams: Dispatcher }): Promise<void> {
    this.pool.connectionsClosed++;
    const graceful = Promise.race([
      connection.dispatcher.close(),
      sleep(CLOSE_GRACE_MS, undefined, { ref: false }),
    ]).catch(() => undefined);
    await Promise.all([
      graceful.then(() => connection.dispatcher.destroy().catch(() => undefined)),
      connection.streams.destroy().catch(() => undefined),
    ]);
  }
}

export interface ClusterPoolOptions {
  /** An entry unused this long is closed (default 10 minutes). */
  idleTtlMs?: number;
  /** How often idle entries are looked for (default 1 minute); 0 starts no timer (tests sweep by hand). */
  sweepIntervalMs?: number;
  now?: () => number;
}

export interface PoolStats {
  entries: { fingerprint: string; server: string; sources: string[]; inFlight: number; idleMs: number }[];
  /** Entries closed so far, by reason. */
  closed: Record<CloseReason, number>;
  /** Connections (undici dispatchers) closed so far. */
  connectionsClosed: number;
}

export class ClusterPool {
  /** QPS/burst of entries created from now on. */
  rateLimit: RateLimit = DEFAULT_RATE_LIMIT;
  connectionsClosed = 0;
  readonly now: () => number;
  private readonly entries = new Map<string, PoolEntry>();
  /** The entry each named kubeconfig (e.g. `secret ns/name`) pointed at when last read. */
  private readonly claims = new Map<string, PoolEntry>();
  private readonly closedBy: Record<CloseReason, number> = { replaced: 0, idle: 0, shutdown: 0 };
  private readonly idleTtlMs: number;
  private readonly sweepIntervalMs: number;
  private sweeper?: NodeJS.Timeout;

  constructor(options: ClusterPoolOptions = {}) {
    this.idleTtlMs = options.idleTtlMs ?? 10 * 60_000;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** The open entry of this cluster+credential, made if there is none. */
  acquire(endpoint: ClusterEndpoint, fingerprint = fingerprintOf(endpoint)): PoolEntry {
    let entry = this.entries.get(fingerprint);
    if (!entry) {
      this.entries.set(fingerprint, (entry = new PoolEntry(fingerprint, endpoint, this)));
      if (!this.sweeper && this.sweepIntervalMs > 0) {
        // unref: an idle sweep must never keep a finished CLI command alive.
        this.sweeper = setInterval(() => void this.sweep(), this.sweepIntervalMs).unref();
      }
    }
    return entry;
  }

  /**
   * Records that the kubeconfig named `source` (e.g. `secret ns/name`, read again at each
   * reconcile) now resolves to `endpoint`. When it resolved to another credential before (a
   * re-issued certificate, a new token) and nothing else named that one, the old entry is closed.
   */
  claim(source: string, endpoint: ClusterEndpoint): PoolEntry {
    const entry = this.acquire(endpoint);
    const previous = this.claims.get(source);
    if (previous === entry) return entry;
    this.claims.set(source, entry);
    entry.sources.add(source);
    if (previous) {
      previous.sources.delete(source);
      if (previous.sources.size === 0) void this.close(previous, "replaced");
    }
    return entry;
  }

  /** Closes entries unused for the idle TTL; resolves when their connections are closed. */
  async sweep(): Promise<void> {
    const now = this.now();
    const idle = [...this.entries.values()].filter(
      (e) => e.requestsInFlight === 0 && now - e.lastUsedAt >= this.idleTtlMs,
    );
    await Promise.all(idle.map((e) => this.close(e, "idle")));
  }

  /** Closes every entry (process shutdown, tests); the pool can be used again afterwards. */
  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    await Promise.all(all.map((e) => this.close(e, "shutdown")));
  }

  stats(): PoolStats {
    const now = this.now();
    return {
      entries: [...this.entries.values()].map((e) => ({
        fingerprint: e.fingerprint,
        server: e.endpoint.server,
        sources: [...e.sources],
        inFlight: e.requestsInFlight,
        idleMs: now - e.lastUsedAt,
      })),
      closed: { ...this.closedBy },
      connectionsClosed: this.connectionsClosed,
    };
  }

  private close(entry: PoolEntry, reason: CloseReason): Promise<void> {
    if (entry.closed) return Promise.resolve();
    entry.closed = true;
    this.closedBy[reason]++;
    if (this.entries.get(entry.fingerprint) === entry) this.entries.delete(entry.fingerprint);
    for (const source of entry.sources) if (this.claims.get(source) === entry) this.claims.delete(source);
    if (this.entries.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
    entry.notifyClosed();
    // At shutdown everything goes now (as before the pool); otherwise running requests finish first.
    return reason === "shutdown" || entry.requestsInFlight === 0 ? entry.release() : Promise.resolve();
  }
}

/** The process's pool: every KubeClient takes its connection from here. */
export const clusterPool = new ClusterPool();
