// A loopback server answering the listing endpoints of GitHub's, GitLab's and Gitea's REST APIs as
// their documentation describes them (no forge runs here: decision 0037), for the forge input providers:
// - GitHub (Enterprise path /api/v3): GET /repos/{owner}/{repo}/branches|tags|pulls, `Authorization:
//   Bearer`, `per_page` (max 100) and `page`, a Link header with rel="next"; pulls filtered by `state`;
// - GitLab (/api/v4): GET /projects/{url-encoded path}/repository/branches (with `regex`) | tags and
//   /merge_requests (`state=opened`, `labels` all required), `Private-Token`, X-Next-Page;
// - Gitea (/api/v1): GET /version, /repos/{owner}/{repo}/branches|tags|pulls (`limit`, `page`, `state`),
//   `Authorization: token`, Link rel="next".
// Every request is recorded (path and the credential header's name, never its value) for the tests.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ForgeRequest {
  number: number;
  title: string;
  author: string;
  branch: string;
  sha: string;
  labels: string[];
  open?: boolean;
}
export interface ForgeRepo {
  branches: { name: string; sha: string }[];
  tags: { name: string; sha: string }[];
  requests: ForgeRequest[];
}
export interface ForgeApi {
  url: string;
  /** Repositories by "owner/name" (GitLab: the project's full path). */
  repos: Map<string, ForgeRepo>;
  calls: { forge: string; path: string; authorized: boolean }[];
  stop(): Promise<void>;
}

type Forge = "github" | "gitlab" | "gitea";
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));

function page<T>(items: T[], q: URLSearchParams, sizeParam: string, fallback: number) {
  const size = Math.min(100, Number(q.get(sizeParam) ?? fallback) || fallback);
  const n = Math.max(1, Number(q.get("page") ?? 1) || 1);
  const slice = items.slice((n - 1) * size, n * size);
  return { slice, next: n * size < items.length ? n + 1 : 0 };
}

function linkNext(req: IncomingMessage, url: URL, next: number): Record<string, string> {
  if (!next) return {};
  const u = new URL(url.toString());
  u.searchParams.set("page", String(next));
  return { link: `<http://${req.headers.host}${u.pathname}${u.search}>; rel="next"` };
}

export async function startForgeApi(token: string): Promise<ForgeApi> {
  const repos = new Map<string, ForgeRepo>();
  const calls: ForgeApi["calls"] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url!, "http://forge");
    const q = url.searchParams;
    const forge: Forge | undefined = url.pathname.startsWith("/api/v3/")
      ? "github"
      : url.pathname.startsWith("/api/v4/")
        ? "gitlab"
        : url.pathname.startsWith("/api/v1/")
          ? "gitea"
          : undefined;
    const authorized =
      forge === "github"
        ? req.headers.authorization === `Bearer ${token}`
        : forge === "gitlab"
          ? req.headers["private-token"] === token
          : req.headers.authorization === `token ${token}`;
    calls.push({ forge: forge ?? "none", path: url.pathname, authorized });
    if (!forge) return json(res, 404, { message: "Not Found" });
    if (forge === "gitea" && url.pathname === "/api/v1/version") return json(res, 200, { version: "1.22.3" });
    if (!authorized) return json(res, 401, { message: forge === "gitlab" ? "401 Unauthorized" : "Bad credentials" });

    if (forge === "gitlab") {
      const m = /^\/api\/v4\/projects\/([^/]+)\/(repository\/branches|repository\/tags|merge_requests)$/.exec(
        url.pathname,
      );
      const repo = m && repos.get(decodeURIComponent(m[1]!));
      if (!m || !repo) return json(res, 404, { message: "404 Project Not Found" });
      let items: unknown[];
      if (m[2] === "repository/branches") {
        const rx = q.get("regex") ? new RegExp(q.get("regex")!) : undefined;
        items = repo.branches
          .filter((b) => !rx || rx.test(b.name))
          .map((b) => ({ name: b.name, commit: { id: b.sha, short_id: b.sha.slice(0, 8) } }));
      } else if (m[2] === "repository/tags") items = repo.tags.map((t) => ({ name: t.name, commit: { id: t.sha } }));
      else {
        const wanted = (q.get("labels") ?? "").split(",").filter(Boolean);
        items = repo.requests
          .filter((r) => (q.get("state") !== "opened" || r.open !== false) && wanted.every((l) => r.labels.includes(l)))
          .map((r) => ({
            id: 1000 + r.number,
            iid: r.number,
            title: r.title,
            state: r.open === false ? "closed" : "opened",
            source_branch: r.branch,
            sha: r.sha,
            author: { username: r.author },
            labels: r.labels,
          }));
      }
      const { slice, next } = page(items, q, "per_page", 20);
      return json(res, 200, slice, { "x-next-page": next ? String(next) : "", "x-page": q.get("page") ?? "1" });
    }

    const prefix = forge === "github" ? "/api/v3/repos/" : "/api/v1/repos/";
    const m = new RegExp(`^${prefix}([^/]+/[^/]+)/(branches|tags|pulls)$`).exec(url.pathname);
    const repo = m && repos.get(m[1]!);
    if (!m || !repo) return json(res, 404, { message: "Not Found" });
    let items: unknown[];
    if (m[2] === "branches")
      items = repo.branches.map((b) => ({ name: b.name, commit: forge === "github" ? { sha: b.sha } : { id: b.sha } }));
    else if (m[2] === "tags") items = repo.tags.map((t) => ({ name: t.name, commit: { sha: t.sha } }));
    else {
      const state = q.get("state") ?? "open";
      items = repo.requests
        .filter((r) => state === "all" || (state === "open") === (r.open !== false))
        .map((r) => ({
          number: r.number,
          state: r.open === false ? "closed" : "open",
          title: r.title,
          user: { login: r.author },
          head: { ref: r.branch, sha: r.sha },
          labels: r.labels.map((name) => ({ name })),
        }));
    }
    const { slice, next } = forge === "github" ? page(items, q, "per_page", 30) : page(items, q, "limit", 30);
    return json(res, 200, slice, linkNext(req, url, next));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    repos,
    calls,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
