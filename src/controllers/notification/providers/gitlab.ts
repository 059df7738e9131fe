// gitlab (notification-controller's gitlab.go through gitlab-org/api/client-go v1.46.0): a commit
// status named with Flux's key on the event's revision, unless one with the same name, state and
// description is there (Flux lists them by name first). Progressing events are not posted. The project
// is the address's path (owner/repo, or deeper groups), escaped as one segment.
import {
  commitOf,
  commitStatusKey,
  isProgressing,
  jsonOf,
  nameAndDescription,
  parseGitAddress,
  requireToken,
  severityState,
} from "./forge.js";
import { ProviderInvalid } from "../errors.js";
import type { ProviderBuilder, ProviderSettings, SettingsCheck } from "./types.js";

/** client-go's PathEscape: url.PathEscape, and '.' too. */
const pathEscape = (s: string) => encodeURIComponent(s).replace(/\./g, "%2E");

function project(s: ProviderSettings) {
  const parsed = parseGitAddress(s.address);
  if (!parsed || !parsed.id)
    throw new ProviderInvalid("gitlab: the provider's address is not a Git repository URL", "InvalidAddress");
  return { base: `${parsed.host}/api/v4/`, id: pathEscape(parsed.id) };
}

export const checkGitlab: SettingsCheck = (s) => {
  requireToken("gitlab", s);
  project(s);
};

interface CommitStatus {
  sha?: string;
  status?: string;
  name?: string;
  description?: string;
}

export const gitlab: ProviderBuilder = (event, s) => {
  if (isProgressing(event)) return undefined;
  const token = requireToken("gitlab", s);
  const { base, id } = project(s);
  const sha = commitOf(event);
  const name = commitStatusKey(event, s.providerUid);
  const description = nameAndDescription(event).description;
  const state = severityState(event, "success", "failed", "gitlab");
  const headers = { "Private-Token": token, "User-Agent": "go-gitlab", Accept: "application/json" };
  return {
    url: `${base}projects/${id}/statuses/${sha}`,
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify({ state, name, description }),
    unlessPresent: {
      url: `${base}projects/${id}/repository/commits/${sha}/statuses?name=${encodeURIComponent(name)}`,
      headers,
      // duplicateGitlabStatus: any status of this commit with the same state, description and name.
      present: (body) =>
        (jsonOf<CommitStatus[]>(body) ?? []).some(
          (c) => c.sha === sha && c.status === state && c.description === description && c.name === name,
        ),
    },
  };
};
