// slack and discord (notification-controller's slack.go, discord.go): one attachment coloured by
// severity, the metadata as fields. Go ranges over the metadata map in random order; flotilla sorts
// the fields by key, one of the orders Flux may send. Discord takes the same payload at <hook>/slack.
import { goJson } from "../../../util/go-json.js";
import { JSON_CONTENT, type ProviderBuilder } from "./types.js";
import type { FluxEvent } from "../../../runtime/flux-event.js";

const SLACK_API = "https://slack.com/api/chat.postMessage";

const fields = (e: FluxEvent) =>
  Object.keys(e.metadata ?? {})
    .sort()
    .map((k) => ({ title: k, value: e.metadata![k]!, short: false }));

const author = (e: FluxEvent) =>
  `${(e.involvedObject.kind ?? "").toLowerCase()}/${e.involvedObject.name ?? ""}.${e.involvedObject.namespace ?? ""}`;

function payload(e: FluxEvent, username: string | undefined, channel: string | undefined, withFallback: boolean) {
  const a = author(e);
  return {
    channel: channel ?? "",
    username: username || e.reportingController,
    icon_url: "",
    icon_emoji: "",
    attachments: [
      {
        fallback: withFallback ? `${a}: ${e.message.split("\n")[0]}` : "",
        color: e.severity === "error" ? "danger" : "good",
        author_name: a,
        text: e.message,
        mrkdwn_in: ["text"],
        fields: fields(e),
      },
    ],
  };
}

export const slack: ProviderBuilder = (event, s) => ({
  url: s.address,
  headers: { ...JSON_CONTENT, ...(s.token ? { Authorization: `Bearer ${s.token}` } : {}) },
  body: goJson(payload(event, s.username, s.channel, true)),
  // chat.postMessage answers 200 with {"ok":false,"error":...}; incoming webhooks use status codes.
  ...(s.address === SLACK_API
    ? {
        validate: (_status: number, body: string) => {
          try {
            const r = JSON.parse(body) as { ok?: boolean; error?: string };
            return r.ok ? undefined : `Slack responded with error: ${r.error}`;
          } catch {
            return "unable to unmarshal response body";
          }
        },
      }
    : {}),
});

/** Discord's Slack-compatible endpoint: the hook URL with /slack appended unless it ends so. */
export function discordUrl(address: string): string {
  if (address.endsWith("/slack")) return address;
  const u = new URL(address);
  u.pathname = `${u.pathname.replace(/\/+$/, "")}/slack`;
  return u.toString();
}

export const discord: ProviderBuilder = (event, s) => ({
  url: discordUrl(s.address),
  headers: { ...JSON_CONTENT },
  // Discord's Channel is never sent (payload.Channel stays empty), the fallback neither.
  body: goJson(payload(event, s.username, undefined, false)),
});
