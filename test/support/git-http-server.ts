// The demo's git smart-HTTP server (src/demo/git-http-server.ts) with what only tests need: request
// counters and a log, a slow-fetch mode, HTTPS, a fixed test identity, and repository handles that
// also tag, sign, delete branches and write submodule links.
//
//   const git = await startGitHttpServer({ auth: { username: "u", password: "p" } }); // or { token }
//   const repo = await git.createRepo("podinfo");       // bare repo <root>/podinfo.git, branch main
//   const sha = await repo.commit({ "a.yaml": "x: 1\n", "old.txt": null }, "msg", { branch: "main" });
//   await repo.tag("v1.0.0", sha, true);                // annotated; (name, sha = head(main), annotated = false)
//   await repo.deleteBranch("feature"); await repo.head("main"); await repo.refs();
//   repo.url                                            // http://127.0.0.1:PORT/podinfo.git
//   git.requests.fetch === 0                            // nothing was fetched (see GitHttpRequestCounts)
//   git.resetCounters(); await git.close();
//
// With real git a token is sent with `git -c http.extraHeader="Authorization: Bearer <token>"`.
// Also exported for other test servers: `runGit` (argument array, no shell, isolated env, the test
// identity) and `openBareRepo` (a GitRepoHandle for any bare repo path, e.g. one served by
// git-ssh-server.ts). Author/committer are fixed and dates step by one second per commit from
// 2024-01-01T00:00:00Z, so the same sequence of operations gives the same shas.
import { mkdirSync } from "node:fs";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { constants as zlibConstants, gunzipSync } from "node:zlib";
import {
  type GitHttpAuth,
  requestTarget,
  startGitHttpServer as startDemoGitServer,
} from "../../src/demo/git-http-server.js";
import {
  commitFiles,
  type CommitFiles,
  git as productGit,
  gitEnv as productGitEnv,
  type GitRunOptions,
  type GitRunResult,
  initBareRepo,
  repoName,
  resolveCommit,
  runGit as productRunGit,
} from "../../src/demo/git-repository.js";

export { initBareRepo, repoName };

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

/** An OpenPGP key in a GNUPGHOME, for signed commits and tags (`{ gitlink: sha }` files make submodules). */
export interface GpgSigner {
  keyId: string;
  gnupgHome: string;
}

export interface GitRepoHandle {
  /** Repository name as given to createRepo (without ".git"). */
  name: string;
  /** Absolute path of the bare repository. */
  path: string;
  /** Clone URL (http://127.0.0.1:PORT/<name>.git, or whatever the creator passed). */
  url: string;
  /**
   * Commits `files` (path -> content; null deletes) on top of `branch` (default "main") and moves
   * the branch. A missing branch is created from `from` (a ref or sha), by default main's head
   * (an orphan root commit when main does not exist yet). Returns the 40-hex commit sha.
   */
  commit(
    files: CommitFiles,
    message: string,
    opts?: { branch?: string; from?: string; sign?: GpgSigner },
  ): Promise<string>;
  /** Creates or moves tag `name` to `sha` (default main's head); returns the tagged commit sha. */
  tag(name: string, sha?: string, annotated?: boolean, sign?: GpgSigner): Promise<string>;
  deleteTag(name: string): Promise<void>;
  deleteBranch(name: string): Promise<void>;
  /** Commit sha at refs/heads/<branch>; throws when the branch does not exist. */
  head(branch?: string): Promise<string>;
  /** Every ref: { "refs/heads/main": sha, "refs/tags/v1": sha-of-tag-object-or-commit, ... }. */
  refs(): Promise<Record<string, string>>;
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
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Git with the test identity

const TEST_IDENTITY = {
  GIT_AUTHOR_NAME: "Flotilla Test",
  GIT_AUTHOR_EMAIL: "test@flotilla.invalid",
  GIT_COMMITTER_NAME: "Flotilla Test",
  GIT_COMMITTER_EMAIL: "test@flotilla.invalid",
};

/** An empty HOME shared by test git processes (fixed path: nothing accumulates in /tmp). */
function testHome(): string {
  const home = join(tmpdir(), "flotilla-test-git-home");
  mkdirSync(home, { recursive: true });
  return home;
}

/** Environment for test git processes: no system/global config, no prompts, fixed identity. */
export function gitEnv(home: string = testHome(), extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return productGitEnv(home, { ...TEST_IDENTITY, ...extra });
}

const withTestIdentity = (opts: GitRunOptions): GitRunOptions => ({
  ...opts,
  home: opts.home ?? testHome(),
  env: { ...TEST_IDENTITY, ...opts.env },
});

/** Runs git with an argument array (no shell); never throws on a non-zero exit. */
export const runGit = (args: string[], opts: GitRunOptions = {}): Promise<GitRunResult> =>
  productRunGit(args, withTestIdentity(opts));

/** runGit, throwing with git's stderr on failure; returns trimmed stdout. */
const git = (args: string[], opts: GitRunOptions = {}): Promise<string> => productGit(args, withTestIdentity(opts));

// ---------------------------------------------------------------------------------------------
// Repositories

const EPOCH = Date.UTC(2024, 0, 1) / 1000;

/** A handle to an existing bare repository (see GitRepoHandle). */
export function openBareRepo(path: string, url: string, name = path): GitRepoHandle {
  let tick = 0;
  let queue: Promise<unknown> = Promise.resolve();
  // Operations on one repo run one at a time (update-ref compare-and-swap would fail otherwise).
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => {});
    return next;
  };
  const g = (args: string[], opts: GitRunOptions = {}) => git(["--git-dir", path, ...args], opts);
  const dated = () => {
    const date = `${EPOCH + ++tick} +0000`;
    return { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  };
  const head = async (branch = "main"): Promise<string> => {
    const sha = await resolveCommit(path, `refs/heads/${branch}`);
    if (!sha) throw new Error(`${name}: branch ${branch} does not exist`);
    return sha;
  };

  return {
    name,
    path,
    url,
    head,
    commit: (files, message, opts = {}) =>
      serial(async () => {
        const ref = `refs/heads/${opts.branch ?? "main"}`;
        const current = await resolveCommit(path, ref);
        const parent = current ?? (await resolveCommit(path, opts.from ?? "refs/heads/main"));
        if (!current && opts.from && !parent) throw new Error(`${name}: cannot resolve ${opts.from}`);
        return commitFiles(path, ref, files, message, {
          current,
          parent,
          env: { ...TEST_IDENTITY, ...dated(), ...(opts.sign ? { GNUPGHOME: opts.sign.gnupgHome } : {}) },
          commitTreeArgs: opts.sign ? [`-S${opts.sign.keyId}`] : [],
        });
      }),
    tag: (tagName, sha, annotated = false, sign) =>
      serial(async () => {
        const target = sha ? await resolveCommit(path, sha) : await head("main");
        if (!target) throw new Error(`${name}: cannot resolve ${sha}`);
        const kind = sign ? ["-s", "-u", sign.keyId] : annotated ? ["-a"] : [];
        const args = kind.length
          ? ["tag", "-f", ...kind, "-m", tagName, tagName, target]
          : ["tag", "-f", tagName, target];
        await g(args, { env: { ...dated(), ...(sign ? { GNUPGHOME: sign.gnupgHome } : {}) } });
        return target;
      }),
    deleteTag: (tagName) =>
      serial(async () => {
        await g(["update-ref", "-d", `refs/tags/${tagName}`]);
      }),
    deleteBranch: (branch) =>
      serial(async () => {
        await head(branch);
        await g(["update-ref", "-d", `refs/heads/${branch}`]);
      }),
    refs: async () => {
      const out = await g(["for-each-ref", "--format=%(refname) %(objectname)"]);
      const refs: Record<string, string> = {};
      for (const line of out.split("\n").filter(Boolean)) {
        const [refName, obj] = line.split(" ");
        refs[refName!] = obj!;
      }
      return refs;
    },
  };
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
  const server = await startDemoGitServer({
    auth: opts.auth,
    wrapHandler: watch,
    createServer: tls ? (handler) => createHttpsServer({ cert: tls.certPem, key: tls.keyPem }, handler) : undefined,
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
    close: () => server.close(),
  };
}
