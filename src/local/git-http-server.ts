// A real git smart-HTTP server on loopback, used by the tests and by `flotilla demo`: a Node http server on 127.0.0.1 (free port) that runs
// Git's own CGI, `git http-backend`, once per request. Clients are real git (or any smart-HTTP
// client, protocol v0/v1/v2); nothing is mocked.
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
// Auth: basic ({username, password}) or bearer ({token}: `Authorization: Bearer <token>`). Missing or
// wrong credentials get 401 with `WWW-Authenticate: Basic realm="git"`. With real git a token is sent
// with `git -c http.extraHeader="Authorization: Bearer <token>"`. Pushing over HTTP works only with
// auth configured (http-backend enables receive-pack only when REMOTE_USER is set); without it, 403.
//
// Also exported for other test servers: `runGit` (argument array, no shell, isolated env) and
// `openBareRepo` (a GitRepoHandle for any bare repo path, e.g. one served by git-ssh-server.ts).
// Commits are written with plumbing (hash-object, a temporary index, write-tree, commit-tree,
// update-ref) directly in the bare repo; author/committer are fixed and dates step by one second
// per commit from 2024-01-01T00:00:00Z, so the same sequence of operations gives the same shas.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import { constants as zlibConstants, gunzipSync } from "node:zlib";

export type GitHttpAuth = { username: string; password: string } | { token: string };

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
  status: number;
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
    files: Record<string, string | null | { gitlink: string }>,
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
// Running git

export interface GitRunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string | Buffer;
  /** Isolated HOME (default: $TMPDIR/flotilla-test-git-home, kept empty). */
  home?: string;
}

export interface GitRunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** An empty HOME shared by test git processes (fixed path: nothing accumulates in /tmp). */
function isolatedHome(): string {
  const home = join(tmpdir(), "flotilla-test-git-home");
  mkdirSync(home, { recursive: true });
  return home;
}

/** Environment for git processes: no system/global config, no prompts, fixed identity. */
export function gitEnv(home: string = isolatedHome(), extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "",
    SSH_ASKPASS: "",
    LANG: "C",
    LC_ALL: "C",
    GIT_AUTHOR_NAME: "Flotilla Test",
    GIT_AUTHOR_EMAIL: "test@flotilla.invalid",
    GIT_COMMITTER_NAME: "Flotilla Test",
    GIT_COMMITTER_EMAIL: "test@flotilla.invalid",
    ...extra,
  };
}

/** Runs git with an argument array (no shell); never throws on a non-zero exit. */
export function runGit(args: string[], opts: GitRunOptions = {}): Promise<GitRunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("git", args, {
      cwd: opts.cwd,
      env: gitEnv(opts.home, opts.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    child.once("error", reject);
    child.once("close", (code) =>
      resolvePromise({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
    child.stdin.on("error", () => {}); // git may exit before reading all input
    child.stdin.end(opts.input ?? "");
  });
}

/** runGit, throwing with git's stderr on failure; returns trimmed stdout. */
export async function git(args: string[], opts: GitRunOptions = {}): Promise<string> {
  const r = await runGit(args, opts);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr.trim()}`);
  return r.stdout.trim();
}

async function gitExecPath(): Promise<string> {
  return git(["--exec-path"]);
}

// ---------------------------------------------------------------------------------------------
// Repositories

const EPOCH = Date.UTC(2024, 0, 1) / 1000;

/** Creates a bare repository at `path` with HEAD -> refs/heads/main. */
export async function initBareRepo(path: string): Promise<void> {
  mkdirSync(path, { recursive: true });
  await git(["init", "--quiet", "--bare", "--initial-branch=main", path]);
}

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
  const resolveCommit = async (rev: string): Promise<string | undefined> => {
    const r = await runGit(["--git-dir", path, "rev-parse", "--verify", "--quiet", `${rev}^{commit}`]);
    return r.code === 0 ? r.stdout.trim() : undefined;
  };
  const head = async (branch = "main"): Promise<string> => {
    const sha = await resolveCommit(`refs/heads/${branch}`);
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
        const branch = opts.branch ?? "main";
        const ref = `refs/heads/${branch}`;
        const current = await resolveCommit(ref);
        const parent = current ?? (await resolveCommit(opts.from ?? "refs/heads/main"));
        if (!current && opts.from && !parent) throw new Error(`${name}: cannot resolve ${opts.from}`);
        const tmp = mkdtempSync(join(tmpdir(), "flotilla-git-index-"));
        try {
          const env = { GIT_INDEX_FILE: join(tmp, "index") };
          await g(parent ? ["read-tree", parent] : ["read-tree", "--empty"], { env });
          const lines: string[] = [];
          for (const [file, content] of Object.entries(files)) {
            const p = file.replace(/^\/+/, "");
            if (content === null) {
              lines.push(`0 ${"0".repeat(40)}\t${p}`);
            } else if (typeof content === "object") {
              lines.push(`160000 ${content.gitlink}\t${p}`);
            } else {
              const blob = await g(["hash-object", "-w", "--stdin"], { input: content });
              lines.push(`100644 ${blob}\t${p}`);
            }
          }
          if (lines.length) await g(["update-index", "--index-info"], { env, input: lines.join("\n") + "\n" });
          const tree = await g(["write-tree"], { env });
          const signArgs = opts.sign ? [`-S${opts.sign.keyId}`] : [];
          const sha = await g(["commit-tree", ...signArgs, tree, ...(parent ? ["-p", parent] : []), "-F", "-"], {
            env: { ...dated(), ...(opts.sign ? { GNUPGHOME: opts.sign.gnupgHome } : {}) },
            input: message.endsWith("\n") ? message : message + "\n",
          });
          await g(["update-ref", "-m", `commit: ${message.split("\n")[0]}`, ref, sha, current ?? "0".repeat(40)]);
          return sha;
        } finally {
          rmSync(tmp, { recursive: true, force: true });
        }
      }),
    tag: (tagName, sha, annotated = false, sign) =>
      serial(async () => {
        const target = sha ? await resolveCommit(sha) : await head("main");
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

/** Validates a repo name ("podinfo", "org/app") and returns it without a trailing ".git". */
export function repoName(name: string): string {
  const bare = name.replace(/\.git$/, "");
  if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(bare) || bare.split("/").some((s) => s === ".." || s === ".")) {
    throw new Error(`invalid repository name: ${name}`);
  }
  return bare;
}

// ---------------------------------------------------------------------------------------------
// The server

function checkAuth(req: IncomingMessage, auth: GitHttpAuth | undefined): { ok: boolean; user?: string } {
  if (!auth) return { ok: true };
  const header = req.headers.authorization ?? "";
  const space = header.indexOf(" ");
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if ("token" in auth) return { ok: scheme === "bearer" && value === auth.token, user: "token" };
  if (scheme !== "basic") return { ok: false };
  const decoded = Buffer.from(value, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  const user = decoded.slice(0, colon);
  return { ok: colon >= 0 && user === auth.username && decoded.slice(colon + 1) === auth.password, user };
}

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

export async function startGitHttpServer(opts: GitHttpServerOptions = {}): Promise<GitHttpServer> {
  const backend = join(await gitExecPath(), "git-http-backend");
  const base = mkdtempSync(join(tmpdir(), "flotilla-git-http-"));
  const root = join(base, "repos");
  const home = join(base, "home");
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });

  const counts = emptyCounts();
  const log: GitHttpRequest[] = [];
  const children = new Set<ReturnType<typeof spawn>>();
  let port = 0;

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

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      path = url.pathname;
    }
    const query = url.search.replace(/^\?/, "");
    const method = req.method ?? "GET";
    const entry: GitHttpRequest = { method, path, query, status: 0 };

    const auth = checkAuth(req, opts.auth);
    if (!auth.ok) {
      entry.status = 401;
      record(entry);
      req.resume();
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"', "Content-Type": "text/plain" });
      res.end("authentication required\n");
      return;
    }

    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
      HOME: home,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_TERMINAL_PROMPT: "0",
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      GATEWAY_INTERFACE: "CGI/1.1",
      SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
      SERVER_NAME: "127.0.0.1",
      SERVER_PORT: String(port),
      REQUEST_METHOD: method,
      REQUEST_URI: req.url ?? "/",
      PATH_INFO: path,
      QUERY_STRING: query,
      REMOTE_ADDR: req.socket.remoteAddress ?? "127.0.0.1",
    };
    if (req.headers["content-type"]) env.CONTENT_TYPE = req.headers["content-type"];
    if (req.headers["content-length"]) env.CONTENT_LENGTH = req.headers["content-length"];
    if (req.headers["content-encoding"]) env.HTTP_CONTENT_ENCODING = req.headers["content-encoding"];
    const protocol = req.headers["git-protocol"];
    if (typeof protocol === "string") env.HTTP_GIT_PROTOCOL = protocol;
    if (opts.auth && auth.user) env.REMOTE_USER = auth.user;

    const child = spawn(backend, [], { env, stdio: ["pipe", "pipe", "pipe"] });
    children.add(child);
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdin!.on("error", () => {});

    // Request body -> CGI stdin (streamed), sniffing the first bytes to classify upload-pack calls.
    const sniff: Buffer[] = [];
    let sniffed = 0;
    req.on("data", (d: Buffer) => {
      if (sniffed < 4096) {
        sniff.push(d);
        sniffed += d.length;
      }
    });
    req.on("end", () => {
      if (method === "POST" && path.endsWith("/git-upload-pack")) {
        const gzip = /gzip/i.test(String(req.headers["content-encoding"] ?? ""));
        entry.command = uploadPackCommand(Buffer.concat(sniff), gzip);
      }
      // Counted when the request is complete, before any response byte: a client that has
      // finished always sees its requests counted. `entry.status` is filled in later.
      record(entry);
    });
    req.pipe(child.stdin!);
    req.on("aborted", () => child.kill("SIGKILL"));
    res.on("close", () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });

    // A slow server: object-fetching responses start only after delayFetchMs. entry.command is
    // known once the request body has ended (the handler above runs first).
    const delay = opts.delayFetchMs;
    const held = delay
      ? new Promise<void>((r) => req.on("end", () => (entry.command === "fetch" ? setTimeout(r, delay) : r())))
      : undefined;

    // CGI stdout: headers (Status:, Content-Type, ...) up to a blank line, then the body.
    let headerBuf = Buffer.alloc(0);
    let headersDone = false;
    const onData = (d: Buffer) => {
      if (headersDone) return;
      headerBuf = Buffer.concat([headerBuf, d]);
      const crlf = headerBuf.indexOf("\r\n\r\n");
      const lf = headerBuf.indexOf("\n\n");
      let end = -1;
      let sepLen = 0;
      if (crlf >= 0 && (lf < 0 || crlf < lf)) [end, sepLen] = [crlf, 4];
      else if (lf >= 0) [end, sepLen] = [lf, 2];
      if (end < 0) return;
      headersDone = true;
      child.stdout!.off("data", onData);
      const send = () => {
        if (res.destroyed) return; // the client went away while the response was held
        let status = 200;
        const headers: Record<string, string> = {};
        for (const line of headerBuf.subarray(0, end).toString("latin1").split(/\r?\n/)) {
          const colon = line.indexOf(":");
          if (colon <= 0) continue;
          const key = line.slice(0, colon).trim();
          const value = line.slice(colon + 1).trim();
          if (key.toLowerCase() === "status") status = parseInt(value, 10) || 500;
          else headers[key] = value;
        }
        entry.status = status;
        res.writeHead(status, headers);
        const rest = headerBuf.subarray(end + sepLen);
        if (rest.length) res.write(rest);
      };
      if (!held) {
        send();
        child.stdout!.pipe(res);
        return;
      }
      // Held: keep reading (a paused pipe is dropped when the CGI exits) and replay once released.
      const body: Buffer[] = [];
      let ended = false;
      let released = false;
      child.stdout!.on("data", (c: Buffer) => (!released ? body.push(c) : !res.destroyed && res.write(c)));
      child.stdout!.on("end", () => (released ? res.end() : (ended = true)));
      void held.then(() => {
        send();
        if (res.destroyed) return;
        for (const c of body) res.write(c);
        released = true;
        if (ended) res.end();
      });
    };
    child.stdout!.on("data", onData);
    child.once("error", (err) => {
      stderr += String(err);
    });
    child.once("close", (code) => {
      children.delete(child);
      if (!headersDone) {
        entry.status = 502;
        if (!res.headersSent) res.writeHead(502, { "Content-Type": "text/plain" });
        res.end(`git http-backend failed (${code}): ${stderr}\n`);
      }
    });
  };

  const server: Server = opts.tls
    ? createHttpsServer({ cert: opts.tls.certPem, key: opts.tls.keyPem }, handle)
    : createServer(handle);
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => ok());
  });
  port = (server.address() as AddressInfo).port;
  const url = `${opts.tls ? "https" : "http"}://127.0.0.1:${port}`;

  return {
    url,
    port,
    root,
    requests: counts,
    log,
    createRepo: async (name) => {
      const bare = repoName(name);
      const path = resolve(root, `${bare}.git`);
      if (!path.startsWith(root + sep)) throw new Error(`invalid repository name: ${name}`);
      await initBareRepo(path);
      return openBareRepo(path, `${url}/${bare}.git`, bare);
    },
    resetCounters: () => {
      Object.assign(counts, emptyCounts());
      log.length = 0;
    },
    close: async () => {
      for (const child of children) child.kill("SIGKILL");
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      rmSync(base, { recursive: true, force: true });
    },
  };
}
