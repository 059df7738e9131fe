// What a provider type needs to turn an event into a request: its settings resolved from the Provider
// and its Secrets (provider-config.ts), and the request it makes. A provider is a pure function of
// both, so payloads are held to notification-controller's bytes by unit tests; sending is send.ts's.
import type { FluxEvent } from "../../../runtime/flux-event.js";

export interface ProviderSettings {
  /** spec.address, or the Secret's `address` (which wins). */
  address: string;
  channel?: string;
  username?: string;
  password?: string;
  token?: string;
  headers?: Record<string, string>;
  /** The Provider's UID (Flux keys commit statuses and Opsgenie aliases on it). */
  providerUid?: string;
  /** A forge commit status key (Flux's generateDefaultCommitStatus). */
  commitStatus?: string;
}

export interface OutgoingRequest {
  url: string;
  method?: "POST" | "PUT";
  headers: Record<string, string>;
  body: string;
  /** How a 2xx answer is further judged (Slack's chat.postMessage answers 200 with ok:false). */
  validate?: (status: number, body: string) => string | undefined;
  /**
   * A GET sent first (the forges' duplicate check): when `present` says its answer already holds this
   * status, nothing more is sent. `accept` lists the non-2xx codes that still mean "look no further"
   * (Bitbucket answers 404 for a key it has never seen).
   */
  unlessPresent?: {
    url: string;
    headers: Record<string, string>;
    present: (body: string) => boolean;
    accept?: number[];
  };
  /** Sent after this one succeeds (PagerDuty's change event after its alert event). */
  then?: OutgoingRequest;
}

/** One provider type: builds the request, or refuses the event (undefined: nothing to send). */
export type ProviderBuilder = (event: FluxEvent, settings: ProviderSettings) => OutgoingRequest | undefined;

/**
 * What a type requires of its settings, checked when the Provider is resolved, so a missing token or an
 * address that is no repository is stated on the Provider's status before any event (Flux's New*).
 */
export type SettingsCheck = (settings: ProviderSettings) => void;

export const JSON_CONTENT = { "Content-Type": "application/json" };

export const basicAuth = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
