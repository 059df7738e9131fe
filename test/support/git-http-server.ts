// The demo's git smart-HTTP server (src/demo/git-http-server.ts) with what only tests need: request
// counters and a log, a slow-fetch mode and HTTPS; its repositories are git-repository.ts handles
// (test identity, branches, tags, signing).
//
//   const git = await startGitHttpServer({ auth: { username: "u", password: "p" } }); // or { token }
//   const repo = await git.createRepo("podinfo");       // bare repo <root>/podinfo.git, branch main
//   repo.url                                            // http://127.0.0.1:PORT/podinfo.git
//   git.requests.fetch === 0                            // nothing was fetched (see GitHttpRequestCounts)
//   git.resetCounters(); await git.close();
//   await git.goDown(); await git.comeBack();           // an outage: refused, then back on the same port
//
// With real git a token is sent with `git -c http.extraHeader="Authorization: Bearer <token>"`.
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { constants as zlibConstants, gunzipSync } from "node:zlib";
import {
  type GitHttpAuth,
  requestTarget,
  startGitHttpServer as startDemoGitServer,
} from "../../src/demo/git-http-server.js";
import { type GitRepoHandle, openBareRepo } from "./git-repository.js";
import { listenAgain, stopListening } from "./outage.js";

export interface GitHttpServerOptions {
  auth?: GitHttpAuth;
  /** Hold every object-fetching response this long (a slow server, for interruption tests). */
  delayFetchMs?: number;
  /** Serve HTTPS with this certificate (PEM) instead of plain HTTP. */
  tls?: { certPem: string; keyPem: string };
}

/** One request the server saw (after the auth check). */
export interface GitHttpRequest {
  method: string;
  /** Decoded path, e.g. "/podinfo.git/info/refs". */
  path: string;
  query: string;
  /** The response status; 0 until the response starts. */
  readonly status: number;
  /** For POST git-upload-pack: "ls-refs" (v2 ref listing) or "fetch" (v2 fetch, or v0/v1 wants). */
  command?: string;
}

export interface GitHttpRequestCounts {
  total: number;
  /** Requests rejected with 401. */
  unauthorized: number;
  /** GET <repo>/info/refs (ref advertisement in v0/v1, capabilities in v2). */
  infoRefs: number;
  /** POST <repo>/git-upload-pack, any command (a v2 `git ls-remote` makes one: ls-refs). */
  uploadPack: number;
  /**
   * POST git-upload-pack that negotiates/fetches objects (v2 command=fetch, or v0/v1 want lines).
   * One fetch may take several negotiation rounds; `fetch === 0` means nothing was fetched.
   */
  fetch: number;
  /** POST git-upload-pack with v2 command=ls-refs. */
  lsRefs: number;
  /** POST <repo>/git-receive-pack. */
  receivePack: number;
  /** Per "METHOD /path" (query excluded), e.g. "GET /podinfo.git/info/refs". */
  byPath: Record<string, number>;
}

export interface GitHttpServer {
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  port: number;
  /** Directory holding the bare repositories (GIT_PROJECT_ROOT). */
  root: string;
  createRepo(name: string): Promise<GitRepoHandle>;
  /** Live counters; reset with resetCounters(). */
  readonly requests: GitHttpRequestCounts;
  /** Every request since the last resetCounters(), oldest first. */
  readonly log: GitHttpRequest[];
  resetCounters(): void;
  /** An outage: stops listening (connections are refused); the repositories stay. */
  goDown(): Promise<void>;
  /** Back from goDown(), listening on the same port. */
  comeBack(): Promise<void>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Watching requests

/** Classifies an upload-pack request body from its first bytes (maybe gzip-compressed). */
function uploadPackCommand(head: Buffer, gzip: boolean): string {
  let text = "";
  try {
    text = (gzip ? gunzipSync(head, { finishFlush: zlibConstants.Z_SYNC_FLUSH }) : head).toString("latin1");
  } catch {
    return "unknown";
  }
  const m = /^[0-9a-f]{4}command=([a-z-]+)/.exec(text);
  if (m) return m[1]!;
  return /^[0-9a-f]{4}want /.test(text) ? "fetch" : "unknown";
}

function emptyCounts(): GitHttpRequestCounts {
  return { total: 0, unauthorized: 0, infoRefs: 0, uploadPack: 0, fetch: 0, lsRefs: 0, receivePack: 0, byPath: {} };
}

/**
 * Holds the response (head and body as the server writes them) until `until` settles, then
 * replays it: the server keeps reading git's output meanwhile, as a slow network would make it.
 */
function holdResponse(res: ServerResponse, until: Promise<void>): void {
  const pending: Array<() => void> = [];
  let released = false;
  const later =
    <A extends unknown[], R>(fn: (...args: A) => R, whileHeld: R) =>
    (...args: A): R => {
      if (released) return fn.apply(res, args);
      pending.push(() => fn.apply(res, args));
      return whileHeld;
    };
  res.writeHead = later(res.writeHead, res) as typeof res.writeHead;
  res.write = later(res.write, true) as typeof res.write;
  res.end = later(res.end, res) as typeof res.end;
  void until.then(() => {
    released = true;
    if (res.destroyed) return; // the client went away while the response was held
    for (const call of pending) call();
  });
}

export async function startGitHttpServer(opts: GitHttpServerOptions = {}): Promise<GitHttpServer> {
  const counts = emptyCounts();
  const log: GitHttpRequest[] = [];
  const record = (entry: GitHttpRequest) => {
    log.push(entry);
    counts.total++;
    const key = `${entry.method} ${entry.path}`;
    counts.byPath[key] = (counts.byPath[key] ?? 0) + 1;
    if (entry.status === 401) {
      counts.unauthorized++;
      return;
    }
    if (entry.method === "GET" && entry.path.endsWith("/info/refs")) counts.infoRefs++;
    if (entry.method === "POST" && entry.path.endsWith("/git-upload-pack")) {
      counts.uploadPack++;
      if (entry.command === "fetch") counts.fetch++;
      if (entry.command === "ls-refs") counts.lsRefs++;
    }
    if (entry.method === "POST" && entry.path.endsWith("/git-receive-pack")) counts.receivePack++;
  };

  const watch =
    (handler: RequestListener): RequestListener =>
    (req: IncomingMessage, res: ServerResponse) => {
      const { path, query } = requestTarget(req);
      const method = req.method ?? "GET";
      const entry: GitHttpRequest = {
        method,
        path,
        query,
        get status() {
          return res.headersSent ? res.statusCode : 0;
        },
      };
      // Sniff the first bytes to classify upload-pack calls (the server streams the body to git).
      const sniff: Buffer[] = [];
      let sniffed = 0;
      req.on("data", (d: Buffer) => {
        if (sniffed < 4096) {
          sniff.push(d);
          sniffed += d.length;
        }
      });
      handler(req, res);
      // Rejected (401): answered at once, before the body; count it now and never hold it.
      if (res.headersSent) {
        record(entry);
        return;
      }
      const ended = new Promise<void>((done) =>
        req.on("end", () => {
          if (method === "POST" && path.endsWith("/git-upload-pack")) {
            const gzip = /gzip/i.test(String(req.headers["content-encoding"] ?? ""));
            entry.command = uploadPackCommand(Buffer.concat(sniff), gzip);
          }
          // Counted when the request is complete, before any response byte: a client that has
          // finished always sees its requests counted.
          record(entry);
          done();
        }),
      );
      const delay = opts.delayFetchMs;
      if (delay) {
        // The server writes its response later (after git's output), so holding starts in time.
        holdResponse(
          res,
          ended.then(() => (entry.command === "fetch" ? new Promise((r) => setTimeout(r, delay)) : undefined)),
        );
      }
    };

  const tls = opts.tls;
  let listener: Server | undefined;
  const server = await startDemoGitServer({
    auth: opts.auth,
    wrapHandler: watch,
    createServer: (handler) =>
      (listener = tls ? createHttpsServer({ cert: tls.certPem, key: tls.keyPem }, handler) : createServer(handler)),
  });
  return {
    url: server.url,
    port: server.port,
    root: server.root,
    requests: counts,
    log,
    createRepo: async (name) => {
      const served = await server.createRepo(name);
      return openBareRepo(served.path, served.url, served.name);
    },
    resetCounters: () => {
      Object.assign(counts, emptyCounts());
      log.length = 0;
    },
    goDown: () => stopListening(listener!),
    comeBack: () => listenAgain(listener!, server.port),
    close: () => server.close(),
  };
}
