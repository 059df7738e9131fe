// bitbucketserver (notification-controller's bitbucketserver.go): a build status on
// <context>/rest/api/latest/projects/<PROJECT>/repos/<repo>/commits/<sha>/builds, the project and repo
// from an http(s) clone URL (…/scm/<PROJECT>/<repo>.git), keyed with the SHA-1 of Flux's status key,
// the name `kind/name [description]`, unless the status of that key already matches. Bearer token, or
// Basic with username and password. Progressing events are not posted.
import { basicAuth, type ProviderBuilder, type SettingsCheck } from "./types.js";
import { ProviderInvalid } from "../errors.js";
import { goJson } from "../../../util/go-json.js";
import {
  commitOf,
  commitStatusKey,
  isProgressing,
  jsonOf,
  nameAndDescription,
  severityState,
  sha1Hex,
} from "./forge.js";
import type { ProviderSettings } from "./types.js";

/** parseBitbucketServerGitAddress: the commits endpoint of the repository the clone URL names. */
export function bitbucketServerCommits(address: string): string {
  let u: URL;
  try {
    u = new URL(address);
  } catch {
    throw new ProviderInvalid("bitbucketserver: could not parse git address", "InvalidAddress");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new ProviderInvalid(
      `bitbucketserver: unsupported scheme type in address: ${u.protocol.slice(0, -1)}. Must be http or https`,
      "InvalidAddress",
    );
  const path = u.pathname.replace(/\.git$/, "");
  const at = path.lastIndexOf("/scm/");
  if (at < 0)
    throw new ProviderInvalid(
      "bitbucketserver: supplied provider address is not http(s) git clone url (…/scm/<project>/<repo>.git)",
      "InvalidAddress",
    );
  const parts = path.slice(at + "/scm/".length).split("/");
  if (parts.length !== 2)
    throw new ProviderInvalid(
      `bitbucketserver: invalid repository id '${parts.join("/")}' in the address`,
      "InvalidAddress",
    );
  return `${u.protocol}//${u.host}${path.slice(0, at)}/rest/api/latest/projects/${parts[0]}/repos/${parts[1]}/commits`;
}

function authorization(s: ProviderSettings): string {
  if (s.token) return `Bearer ${s.token}`;
  if (s.username && s.password) return basicAuth(s.username, s.password);
  throw new ProviderInvalid(
    "bitbucketserver: invalid credentials, expected to be one of username/password or API Token in the Secret named by spec.secretRef",
    "TokenNotSet",
  );
}

export const checkBitbucketServer: SettingsCheck = (s) => {
  bitbucketServerCommits(s.address);
  authorization(s);
};

export const bitbucketServer: ProviderBuilder = (event, s) => {
  if (isProgressing(event)) return undefined;
  const builds = `${bitbucketServerCommits(s.address)}/${commitOf(event)}/builds`;
  const state = severityState(event, "SUCCESSFUL", "FAILED", "bitbucket server");
  const nd = nameAndDescription(event);
  const name = `${nd.name} [${nd.description}]`;
  const key = sha1Hex(commitStatusKey(event, s.providerUid));
  const headers = {
    Authorization: authorization(s),
    "x-atlassian-token": "no-check",
    "x-requested-with": "XMLHttpRequest",
  };
  return {
    url: builds,
    headers: { ...headers, "Content-Type": "application/json" },
    // bbServerBuildStatusSetRequest's order; url is the Provider's address as written.
    body: `${goJson({ description: nd.description, key, name, state, url: s.address })}\n`,
    unlessPresent: {
      url: `${builds}?key=${key}`,
      headers,
      accept: [404],
      present: (body) => {
        const got = jsonOf<{ key?: string; state?: string; description?: string; name?: string }>(body);
        return got?.key === key && got.state === state && got.description === nd.description && got.name === name;
      },
    },
  };
};
