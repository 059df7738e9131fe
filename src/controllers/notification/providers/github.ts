// github (notification-controller's github.go through go-github v64): a commit status on the event's
// revision, unless the newest status of the same context already has this state and description
// (Flux lists the commit's statuses first). Progressing events are not posted. The API is
// api.github.com for github.com, <host>/api/v3/ for GitHub Enterprise (go-github's WithEnterpriseURLs).
import type { FluxEvent } from "../../../runtime/flux-event.js";
import {
  commitOf,
  commitStatusKey,
  isProgressing,
  jsonOf,
  nameAndDescription,
  ownerAndRepo,
  requireToken,
  severityState,
} from "./forge.js";
import type { ProviderBuilder, ProviderSettings, SettingsCheck } from "./types.js";

/** go-github's request headers: v3 media type, the API version it was written for, its user agent. */
export function githubHeaders(token: string): Record<string, string> {
  return {
    Accept: "application/vnd.github.v3+json",
    "User-Agent": "go-github/v64.0.0",
    "X-GitHub-Api-Version": "2022-11-28",
    Authorization: `Bearer ${token}`,
  };
}

export function githubApi(type: string, s: ProviderSettings) {
  const { host, owner, repo } = ownerAndRepo(type, s);
  const base = new URL(host).host === "github.com" ? "https://api.github.com/" : `${host}/api/v3/`;
  return { base, owner: encodeURIComponent(owner), repo: encodeURIComponent(repo) };
}

export const checkGithub: SettingsCheck = (s) => {
  requireToken("github", s);
  githubApi("github", s);
};

interface RepoStatus {
  state?: string;
  description?: string;
  context?: string;
}

/** duplicateGithubStatus: the first status of this context decides. */
export function githubDuplicate(statuses: RepoStatus[] | undefined, want: RepoStatus): boolean {
  for (const s of statuses ?? []) {
    if (s.context == null || s.state == null || s.description == null) continue;
    if (s.context === want.context) return s.state === want.state && s.description === want.description;
  }
  return false;
}

export const github: ProviderBuilder = (event: FluxEvent, s) => {
  if (isProgressing(event)) return undefined;
  const token = requireToken("github", s);
  const { base, owner, repo } = githubApi("github", s);
  const sha = commitOf(event);
  const status: RepoStatus = {
    state: severityState(event, "success", "failure", "github"),
    description: nameAndDescription(event).description,
    context: commitStatusKey(event, s.providerUid),
  };
  const headers = githubHeaders(token);
  return {
    url: `${base}repos/${owner}/${repo}/statuses/${sha}`,
    headers: { ...headers, "Content-Type": "application/json" },
    // go-github encodes with SetEscapeHTML(false) and Encode's newline.
    body: `${JSON.stringify(status)}\n`,
    unlessPresent: {
      url: `${base}repos/${owner}/${repo}/commits/${sha}/statuses?per_page=50`,
      headers,
      present: (body) => githubDuplicate(jsonOf<RepoStatus[]>(body), status),
    },
  };
};
