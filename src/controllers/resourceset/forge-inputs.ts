// The Git forge input providers — GitHub, GitLab and Gitea Branch, Tag and PullRequest/MergeRequest —
// calling each forge's documented REST API as the operator's clients do (go-github, GitLab's client-go,
// Gitea's SDK): GitHub at `<host>/api/v3` (api.github.com for github.com), `Authorization: Bearer`,
// pages from the Link header; GitLab at `<host>/api/v4/projects/<url-encoded path>`, `Private-Token`,
// pages from X-Next-Page, the label filter and the include regex sent to the server; Gitea at
// `<host>/api/v1` after its `/version` check, `Authorization: token`, Link pages. 100 items a page, at
// most 1,000 pages, 10 MiB a response. The token is the secretRef's `password` (with `username`).
import { INPUT_PROVIDER_TYPES, type ResourceSetInputProvider } from "../../api/operator/resourceset-input-provider.js";
import { type CallBudget, getCapped } from "./provider-http.js";
import {
  FORGE_PAGE_SIZE,
  type ForgeResult,
  forgeResultLimit,
  gitlabSlug,
  matchLabels,
  nextPageOfLink,
  PaginationGuard,
  selectTags,
} from "./forge-results.js";
import { inputId } from "./inputs.js";
import { compiledFilter, type InputFilter } from "./provider-filters.js";

const MAX_RESPONSE = 10 * 1024 * 1024;
type Item = Record<string, unknown> & { name?: string; commit?: { sha?: string; id?: string } };
type Forge = "GitHub" | "GitLab" | "Gitea";
type Listing = "branches" | "tags" | "requests";

export const forgeOf = (type: string): Forge | undefined =>
  (["GitHub", "GitLab", "Gitea"] as const).find((f) => type.startsWith(f) && !type.startsWith(`${f}Environment`));
/** The API's forge types flotilla computes: GitHub/GitLab/Gitea Branch, Tag and PullRequest (MergeRequest). */
export const FORGE_TYPES = INPUT_PROVIDER_TYPES.filter((t) => forgeOf(t) !== undefined);
const listingOf = (type: string): Listing =>
  type.endsWith("Branch") ? "branches" : type.endsWith("Tag") ? "tags" : "requests";

interface Api {
  base: string;
  headers: Record<string, string>;
  /** The path and query of a page (0 = the first, as the clients send it). */
  path(listing: Listing, page: number, f: InputFilter): string;
  nextPage(headers: Got["headers"]): number;
}
type Got = Awaited<ReturnType<typeof getCapped>>;

function repoPath(forge: Forge, url: string): { host: string; path: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch (err) {
    throw new Error(`invalid URL "${url}": ${(err as Error).message}`);
  }
  const path = u.pathname.replace(/^\/+/, "");
  const host = `${u.protocol}//${u.host}`;
  if (forge === "GitLab") {
    if (!path) throw new Error(`invalid GitLab URL "${url}": can't find project`);
  } else if (path.split("/").length !== 2)
    throw new Error(`invalid ${forge} URL "${url}": can't find owner and repository`);
  return { host, path };
}

function apiFor(forge: Forge, url: string, token: string): Api {
  const { host, path } = repoPath(forge, url);
  const page = (p: number, size: string) => (p ? `${size}&page=${p}` : size);
  if (forge === "GitHub") {
    const base = host === "https://github.com" ? "https://api.github.com" : `${host}/api/v3`;
    return {
      base: `${base}/repos/${path}`,
      headers: {
        accept: "application/vnd.github.v3+json",
        "x-github-api-version": "2022-11-28",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      path: (l, p) =>
        l === "requests"
          ? `/pulls?${page(p, `per_page=${FORGE_PAGE_SIZE}`)}&state=open`
          : `/${l}?${page(p, `per_page=${FORGE_PAGE_SIZE}`)}`,
      nextPage: (h) => nextPageOfLink(h.get("link")),
    };
  }
  if (forge === "GitLab") {
    const project = encodeURIComponent(path).replace(/\./g, "%2E");
    return {
      base: `${host}/api/v4/projects/${project}`,
      headers: token ? { "private-token": token } : {},
      path: (l, p, f) => {
        const q = new URLSearchParams();
        if (l === "requests" && f.labels?.length) q.set("labels", f.labels.join(","));
        if (p) q.set("page", String(p));
        q.set("per_page", String(FORGE_PAGE_SIZE));
        // makeFilters' include: the Environment pattern over the Tag one over the Branch one.
        const include = f.includeEnvironment || f.includeTag || f.includeBranch;
        if (l === "branches" && include) q.set("regex", include);
        if (l === "requests") q.set("state", "opened");
        return `${l === "requests" ? "/merge_requests" : `/repository/${l}`}?${q}`;
      },
      nextPage: (h) => Number(h.get("x-next-page") || 0) || 0,
    };
  }
  return {
    base: `${host}/api/v1/repos/${path}`,
    headers: token ? { authorization: `token ${token}` } : {},
    // Gitea's SDK sends page 1 for the first page.
    path: (l, p) =>
      l === "requests"
        ? `/pulls?limit=${FORGE_PAGE_SIZE}&page=${p || 1}&state=open`
        : `/${l}?limit=${FORGE_PAGE_SIZE}&page=${p || 1}`,
    nextPage: (h) => nextPageOfLink(h.get("link")),
  };
}

async function getJson<T>(api: Api, url: string, b: CallBudget, forge: Forge): Promise<{ data: T; got: Got }> {
  const what = `${forge} API '${url.replace(/\?.*$/, "")}'`;
  const got = await getCapped(
    url,
    { "user-agent": "flux-operator/flotilla", ...api.headers },
    b,
    MAX_RESPONSE,
    what,
    () => `response body exceeds the maximum allowed size of ${MAX_RESPONSE} bytes`,
  );
  if (got.status < 200 || got.status > 299) {
    let message = "";
    try {
      message = String((JSON.parse(got.body.toString()) as { message?: unknown }).message ?? "");
    } catch {
      /* a body that is not JSON: the status says enough */
    }
    throw new Error(`GET ${url.replace(/\?.*$/, "")}: ${got.status}${message ? ` ${message}` : ""}`);
  }
  try {
    return { data: JSON.parse(got.body.toString()) as T, got };
  } catch (err) {
    throw new Error(`${what} answered JSON that does not parse: ${(err as Error).message}`);
  }
}

const str = (v: unknown) => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));
const obj = (v: unknown) => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});

function toResult(forge: Forge, listing: Listing, it: Item): { name: string; result: ForgeResult } {
  if (listing === "requests") {
    const head = obj(it.head);
    const branch = forge === "GitLab" ? str(it.source_branch) : str(head.ref);
    const labels =
      forge === "GitLab"
        ? ((it.labels as unknown[]) ?? []).map(str)
        : ((it.labels as unknown[]) ?? []).map((l) => str(obj(l).name));
    return {
      name: branch,
      result: {
        id: str(forge === "GitLab" ? it.iid : it.number),
        sha: forge === "GitLab" ? str(it.sha) : str(head.sha),
        branch,
        ...(forge === "GitLab" ? { slug: gitlabSlug(branch) } : {}),
        title: str(it.title),
        author: forge === "GitLab" ? str(obj(it.author).username) : str(obj(it.user).login),
        labels,
      },
    };
  }
  const name = str(it.name);
  const commit = obj(it.commit);
  const sha = forge === "GitLab" || (forge === "Gitea" && listing === "branches") ? str(commit.id) : str(commit.sha);
  return {
    name,
    result: {
      id: inputId(name),
      sha,
      ...(listing === "tags" ? { tag: name } : { branch: name }),
      ...(forge === "GitLab" ? { slug: gitlabSlug(name) } : {}),
    },
  };
}

const LISTING_NAMES: Record<Forge, Record<Listing, string>> = {
  GitHub: { branches: "branches", tags: "tags", requests: "pull requests" },
  GitLab: { branches: "branches", tags: "tags", requests: "merge requests" },
  Gitea: { branches: "branches", tags: "tags", requests: "pull requests" },
};

/** Gitea's SDK asks the server's version when the client is made, and refuses one older than 1.11. */
export async function checkGitea(p: ResourceSetInputProvider, token: string, b: CallBudget): Promise<void> {
  const api = apiFor("Gitea", p.spec.url!, token);
  const host = repoPath("Gitea", p.spec.url!).host;
  const { data } = await getJson<{ version?: string }>(api, `${host}/api/v1/version`, b, "Gitea");
  const [major = 0, minor = 0] = str(data.version).split(".").map(Number);
  if (major < 1 || (major === 1 && minor < 11)) throw new Error(`gitea server at ${host} is older than 1.11.0`);
}

/** The results a forge provider lists (before skip and defaults), as the operator's List* return them. */
export async function listForge(p: ResourceSetInputProvider, f: InputFilter, token: string, b: CallBudget) {
  const forge = forgeOf(p.spec.type)!;
  const listing = listingOf(p.spec.type);
  const api = apiFor(forge, p.spec.url!, token);
  const limit = forgeResultLimit(f);
  const matcher = compiledFilter(f);
  const matches = (s: string) => (!matcher.include || matcher.include.test(s)) && !matcher.exclude?.test(s);
  const guard = new PaginationGuard(`${forge} ${LISTING_NAMES[forge][listing]}`);
  const outer = `failed to list ${listing}`;
  const inner = `could not list ${LISTING_NAMES[forge][listing]}`;
  const tags: { name: string; result: ForgeResult }[] = [];
  const results: ForgeResult[] = [];
  for (let page = 0; ;) {
    try {
      guard.visit(page);
    } catch (err) {
      throw new Error(`${outer}: ${(err as Error).message}`);
    }
    let data: Item[];
    let got: Got;
    try {
      ({ data, got } = await getJson<Item[]>(api, `${api.base}${api.path(listing, page, f)}`, b, forge));
      if (!Array.isArray(data)) throw new Error(`the answer is not a JSON array`);
    } catch (err) {
      throw new Error(`${outer}: ${inner}: ${(err as Error).message}`);
    }
    for (const it of data) {
      const r = toResult(forge, listing, it);
      if (listing === "tags") {
        tags.push(r);
        continue;
      }
      if (!matches(r.name)) continue;
      if (listing === "requests" && forge !== "GitLab" && !matchLabels(f, r.result.labels ?? [])) continue;
      results.push(r.result);
      if (results.length >= limit) return results;
    }
    const next = api.nextPage(got.headers);
    if (!next) break;
    page = next;
  }
  return listing === "tags" ? selectTags(tags, f) : results;
}
