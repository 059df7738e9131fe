// The provider types flotilla delivers, by Flux's name, with what each requires of its settings
// (checked when the Provider is resolved, so it shows on the Provider's status). Every other type of
// Flux's enum is refused by name on the Provider's status (provider-config.ts), never silently dropped.
import { alertmanager } from "./alertmanager.js";
import { bitbucket, checkBitbucket } from "./bitbucket.js";
import { bitbucketServer, checkBitbucketServer } from "./bitbucket-server.js";
import { generic, genericHmac } from "./generic.js";
import { checkGitea, gitea } from "./gitea.js";
import { checkGithub, github } from "./github.js";
import { checkGithubDispatch, githubDispatch } from "./github-dispatch.js";
import { checkGitlab, gitlab } from "./gitlab.js";
import { googlechat } from "./googlechat.js";
import { grafana } from "./grafana.js";
import { msteams } from "./msteams.js";
import { checkOpsgenie, opsgenie } from "./opsgenie.js";
import { pagerduty } from "./pagerduty.js";
import { discord, slack } from "./slack.js";
import { checkTelegram, telegram } from "./telegram.js";
import type { ProviderBuilder, SettingsCheck } from "./types.js";
import { webex } from "./webex.js";

export const PROVIDERS: Record<string, ProviderBuilder> = {
  generic,
  "generic-hmac": genericHmac,
  alertmanager,
  slack,
  discord,
  msteams,
  googlechat,
  telegram,
  webex,
  grafana,
  opsgenie,
  pagerduty,
  github,
  githubdispatch: githubDispatch,
  gitlab,
  gitea,
  bitbucket,
  bitbucketserver: bitbucketServer,
};

export const PROVIDER_CHECKS: Record<string, SettingsCheck> = {
  github: checkGithub,
  githubdispatch: checkGithubDispatch,
  gitlab: checkGitlab,
  gitea: checkGitea,
  bitbucket: checkBitbucket,
  bitbucketserver: checkBitbucketServer,
  telegram: checkTelegram,
  opsgenie: checkOpsgenie,
};

/** Types whose address is not used (Telegram's Bot API URL is fixed). */
export const ADDRESS_NOT_USED = new Set(["telegram"]);

/** Types whose address is a Git repository (https, ssh:// or scp-like), parsed by their own check. */
export const GIT_ADDRESS_TYPES = new Set([
  "github",
  "githubdispatch",
  "gitlab",
  "gitea",
  "bitbucket",
  "bitbucketserver",
]);

export const supportedProviderTypes = () => Object.keys(PROVIDERS);
