// gitea (notification-controller's gitea.go through code.gitea.io/sdk/gitea v0.25.1): a commit status
// on the event's revision — pending for Progressing, success for info, failure for error — unless the
// first listed status of the same context already has this state and description. Unlike github,
// Progressing events are posted (as pending). Auth is the SDK's `Authorization: token <token>`.
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

function api(s: ProviderSettings) {
  const { host, owner, repo } = ownerAndRepo("gitea", s);
  return { base: `${host}/api/v1`, owner: encodeURIComponent(owner), repo: encodeURIComponent(repo) };
}

export const checkGitea: SettingsCheck = (s) => {
  requireToken("gitea", s);
  api(s);
};

interface GiteaStatus {
  state?: string;
  description?: string;
  context?: string;
}

/** duplicateGiteaStatus: the first status of this context decides. */
export function giteaDuplicate(statuses: GiteaStatus[] | undefined, want: Required<GiteaStatus>): boolean {
  for (const s of statuses ?? []) {
    if (!s.context || !s.state || !s.description) continue;
    if (s.context === want.context) return s.state === want.state && s.description === want.description;
  }
  return false;
}

export const gitea: ProviderBuilder = (event, s) => {
  const token = requireToken("gitea", s);
  const { base, owner, repo } = api(s);
  const sha = commitOf(event);
  const state = isProgressing(event) ? "pending" : severityState(event, "success", "failure", "gitea");
  // CreateStatusOption's field order; target_url is always sent, empty.
  const status = {
    state,
    target_url: "",
    description: nameAndDescription(event).description,
    context: commitStatusKey(event, s.providerUid),
  };
  const headers = { Authorization: `token ${token}`, "Content-Type": "application/json" };
  return {
    url: `${base}/repos/${owner}/${repo}/statuses/${sha}`,
    headers,
    body: JSON.stringify(status),
    unlessPresent: {
      url: `${base}/repos/${owner}/${repo}/commits/${sha}/statuses?limit=50&page=1`,
      headers,
      present: (body) => giteaDuplicate(jsonOf<GiteaStatus[]>(body), status),
    },
  };
};
