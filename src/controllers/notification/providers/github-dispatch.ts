// githubdispatch (notification-controller's github_dispatch.go): a repository_dispatch on the
// Provider's repository, event_type `<Kind>/<name>.<namespace>`, the Flux event as client_payload
// (json.Marshal's bytes, kept as a RawMessage inside go-github's non-HTML-escaping encoder).
import { eventJson } from "./generic.js";
import { githubApi, githubHeaders } from "./github.js";
import { requireToken } from "./forge.js";
import type { ProviderBuilder, SettingsCheck } from "./types.js";

export const checkGithubDispatch: SettingsCheck = (s) => {
  requireToken("githubdispatch", s);
  githubApi("githubdispatch", s);
};

export const githubDispatch: ProviderBuilder = (event, s) => {
  const token = requireToken("githubdispatch", s);
  const { base, owner, repo } = githubApi("githubdispatch", s);
  const o = event.involvedObject;
  const eventType = JSON.stringify(`${o.kind ?? ""}/${o.name ?? ""}.${o.namespace ?? ""}`);
  return {
    url: `${base}repos/${owner}/${repo}/dispatches`,
    headers: { ...githubHeaders(token), "Content-Type": "application/json" },
    body: `{"event_type":${eventType},"client_payload":${eventJson(event)}}\n`,
  };
};
