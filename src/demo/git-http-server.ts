// The demo's Git server: real git smart HTTP on loopback. A Node http server on 127.0.0.1 (free
// port) runs Git's own CGI, `git http-backend`, once per request; clients are real git (or any
// smart-HTTP client, protocol v0/v1/v2).
//
//   const git = await startGitHttpServer({ auth: { username: "u", password: "p" } }); // or { token }
//   const repo = await git.createRepo("fleet-infra");   // bare repo <root>/fleet-infra.git, branch main
//   const sha = await repo.commit({ "a.yaml": "x: 1\n", "old.txt": null }, "msg");
//   repo.url                                             // http://127.0.0.1:PORT/fleet-infra.git
//   await git.close();
//
// Auth: basic ({username, password}) or bearer ({token}: `Authorization: Bearer <token>`). Missing or
// wrong credentials get 401 with `WWW-Authenticate: Basic realm="git"`. Pushing works only with auth
// configured (http-backend enables receive-pack only when REMOTE_USER is set); without it, 403.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join, resolve, sep } from "node:path";
import { git, initBareRepo, repoName, servedRepository, type ServedRepository } from "./git-repository.js";
import { makeWorkDir } from "../util/work-dir.js";

export type GitHttpAuth = { username: string; password: string } | { token: string };

export interface GitHttpServerOptions {
  auth?: GitHttpAuth;
  /** Wraps the request handler, e.g. to watch or hold requests (the tests do). */
  wrapHandler?: (handler: RequestListener) => RequestListener;
  /** Makes the server (e.g. an HTTPS one); plain HTTP by default. */
  createServer?: (handler: RequestListener) => Server | HttpsServer;
}

export interface GitHttpServer {
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  port: number;
  /** Directory holding the bare repositories (GIT_PROJECT_ROOT). */
  root: string;
  createRepo(name: string): Promise<ServedRepository>;
  close(): Promise<void>;
}

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

/** Parses the CGI response head (`Status:` and headers up to a blank line); undefined until complete. */
function cgiHead(buf: Buffer): { status: number; headers: Record<string, string>; bodyStart: number } | undefined {
  const crlf = buf.indexOf("\r\n\r\n");
  const lf = buf.indexOf("\n\n");
  let end = -1;
  let sepLen = 0;
  if (crlf >= 0 && (lf < 0 || crlf < lf)) [end, sepLen] = [crlf, 4];
  else if (lf >= 0) [end, sepLen] = [lf, 2];
  if (end < 0) return undefined;
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of buf.subarray(0, end).toString("latin1").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (key.toLowerCase() === "status") status = parseInt(value, 10) || 500;
    else headers[key] = value;
  }
  return { status, headers, bodyStart: end + sepLen };
}

/** The request's decoded path (e.g. "/fleet-infra.git/info/refs") and its query without "?". */
export function requestTarget(req: IncomingMessage): { path: string; query: string } {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    path = url.pathname;
  }
  return { path, query: url.search.replace(/^\?/, "") };
}

/** One `git http-backend` run per request: request body to its stdin, its CGI output to the response. */
function gitHttpBackend(
  backend: string,
  root: string,
  home: string,
  auth: GitHttpAuth | undefined,
  server: { port: number; children: Set<ReturnType<typeof spawn>> },
): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const { path, query } = requestTarget(req);
    const method = req.method ?? "GET";
    const user = checkAuth(req, auth);
    if (!user.ok) {
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
      SERVER_PORT: String(server.port),
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
    if (auth && user.user) env.REMOTE_USER = user.user;

    const child = spawn(backend, [], { env, stdio: ["pipe", "pipe", "pipe"] });
    server.children.add(child);
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdin!.on("error", () => {});
    req.pipe(child.stdin!);
    req.on("aborted", () => child.kill("SIGKILL"));
    res.on("close", () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });

    let headBuf = Buffer.alloc(0);
    let headersDone = false;
    const onData = (d: Buffer) => {
      headBuf = Buffer.concat([headBuf, d]);
      const head = cgiHead(headBuf);
      if (!head) return;
      headersDone = true;
      child.stdout!.off("data", onData);
      res.writeHead(head.status, head.headers);
      const rest = headBuf.subarray(head.bodyStart);
      if (rest.length) res.write(rest);
      child.stdout!.pipe(res);
    };
    child.stdout!.on("data", onData);
    child.once("error", (err) => {
      stderr += String(err);
    });
    child.once("close", (code) => {
      server.children.delete(child);
      if (!headersDone) {
        if (!res.headersSent) res.writeHead(502, { "Content-Type": "text/plain" });
        res.end(`git http-backend failed (${code}): ${stderr}\n`);
      }
    });
  };
}

export async function startGitHttpServer(opts: GitHttpServerOptions = {}): Promise<GitHttpServer> {
  const backend = join(await git(["--exec-path"]), "git-http-backend");
  const base = makeWorkDir("flotilla-git-http-");
  const root = join(base, "repos");
  const home = join(base, "home");
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });

  const state = { port: 0, children: new Set<ReturnType<typeof spawn>>() };
  const handler = gitHttpBackend(backend, root, home, opts.auth, state);
  const wrapped = opts.wrapHandler ? opts.wrapHandler(handler) : handler;
  const server = opts.createServer ? opts.createServer(wrapped) : createServer(wrapped);
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => ok());
  });
  state.port = (server.address() as AddressInfo).port;
  const url = `${server instanceof HttpsServer ? "https" : "http"}://127.0.0.1:${state.port}`;

  return {
    url,
    port: state.port,
    root,
    createRepo: async (name) => {
      const bare = repoName(name);
      const path = resolve(root, `${bare}.git`);
      if (!path.startsWith(root + sep)) throw new Error(`invalid repository name: ${name}`);
      await initBareRepo(path);
      return servedRepository(bare, path, `${url}/${bare}.git`);
    },
    close: async () => {
      for (const child of state.children) child.kill("SIGKILL");
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      rmSync(base, { recursive: true, force: true });
    },
  };
}
