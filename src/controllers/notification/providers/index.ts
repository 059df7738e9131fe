// The provider types flotilla delivers, by Flux's name. Every other type of Flux's enum is refused by
// name on the Provider's status (provider-config.ts), never silently dropped.
import { alertmanager } from "./alertmanager.js";
import { generic, genericHmac } from "./generic.js";
import { msteams } from "./msteams.js";
import { discord, slack } from "./slack.js";
import type { ProviderBuilder } from "./types.js";

export const PROVIDERS: Record<string, ProviderBuilder> = {
  generic,
  "generic-hmac": genericHmac,
  alertmanager,
  slack,
  discord,
  msteams,
};

export const supportedProviderTypes = () => Object.keys(PROVIDERS);
