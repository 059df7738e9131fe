// bitbucket (notification-controller's bitbucket.go through ktrysmt/go-bitbucket v0.10.0): a build
// status on the event's revision at api.bitbucket.org (or $BITBUCKET_API_BASE_URL, which that client
// reads), keyed with the SHA-1 of Flux's status key, unless the status of that key already has this
// state and description (a 404 means none yet). The token is `<user>:<app password>`, sent as Basic
// auth; the address's host is not used, only its owner/repo. Progressing events are not posted.
import { basicAuth, type ProviderBuilder, type SettingsCheck } from "./types.js";
import { ProviderInvalid } from "../errors.js";
import { goJson } from "../../../util/go-json.js";
import {
  commitOf,
  commitStatusKey,
  isProgressing,
  jsonOf,
  nameAndDescription,
  ownerAndRepo,
  severityState,
  sha1Hex,
} from "./forge.js";
import type { ProviderSettings } from "./types.js";

function credentials(s: ProviderSettings): { user: string; password: string } {
  if (!s.token)
    throw new ProviderInvalid(
      "bitbucket token cannot be empty: set the 'token' key of the Secret named by spec.secretRef to <user>:<app password>",
      "TokenNotSet",
    );
  const parts = s.token.split(":");
  if (parts.length !== 2)
    throw new ProviderInvalid(
      "bitbucket: invalid token format in the secretRef's 'token' key, expected to be <user>:<password>",
      "InvalidConfig",
    );
  return { user: parts[0]!, password: parts[1]! };
}

export const checkBitbucket: SettingsCheck = (s) => {
  credentials(s);
  ownerAndRepo("bitbucket", s);
};

const apiBase = () => (process.env.BITBUCKET_API_BASE_URL || "https://api.bitbucket.org/2.0").replace(/\/+$/, "");

export const bitbucket: ProviderBuilder = (event, s) => {
  if (isProgressing(event)) return undefined;
  const { user, password } = credentials(s);
  const { owner, repo } = ownerAndRepo("bitbucket", s);
  const sha = commitOf(event);
  const { name, description } = nameAndDescription(event);
  const key = sha1Hex(commitStatusKey(event, s.providerUid));
  const state = severityState(event, "SUCCESSFUL", "FAILED", "bitbucket");
  const commit = `${apiBase()}/repositories/${owner}/${repo}/commit/${sha}/statuses/build`;
  const headers = { Authorization: basicAuth(user, password) };
  return {
    url: commit,
    headers: { ...headers, "Content-Type": "application/json" },
    // CommitStatusOptions' field order.
    body: goJson({ key, url: "https://bitbucket.org", state, name, description }),
    unlessPresent: {
      url: `${commit}/${key}`,
      headers,
      accept: [404],
      present: (body) => {
        const got = jsonOf<{ state?: string; description?: string }>(body);
        return got?.state === state && got?.description === description;
      },
    },
  };
};
