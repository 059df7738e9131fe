// telegram (notification-controller's telegram.go): sendMessage on the Bot API with the token in the
// path (so the token is the secret: errors name only the host), MarkdownV2 text — a heading with an
// emoji by severity, the message, one `\- *key*: value` line per metadata entry (sorted here; Go ranges
// the map in random order) — to the channel, `<chat id>[:<thread id>]`. spec.address is not used.
import { ProviderInvalid } from "../errors.js";
import { goJson } from "../../../util/go-json.js";
import { JSON_CONTENT, type ProviderBuilder, type SettingsCheck } from "./types.js";

const TELEGRAM_API = "https://api.telegram.org";

/** escapeString: a backslash before each MarkdownV2 special character. */
export const escapeMarkdownV2 = (s: string) => s.replace(/[\\.\-_[\]()~>`#+=|{}!*]/g, (c) => `\\${c}`);

export const checkTelegram: SettingsCheck = (s) => {
  if (!s.channel) throw new ProviderInvalid("empty Telegram channel: set spec.channel to the chat id", "InvalidConfig");
  if (!s.token)
    throw new ProviderInvalid(
      "empty Telegram token: set the 'token' key of the Secret named by spec.secretRef",
      "TokenNotSet",
    );
};

export const telegram: ProviderBuilder = (event, s) => {
  checkTelegram(s);
  const o = event.involvedObject;
  const emoji = event.severity === "error" ? "🚨" : "💫";
  const heading = `${emoji} ${(o.kind ?? "").toLowerCase()}/${o.name ?? ""}/${o.namespace ?? ""}`;
  const metadata = Object.keys(event.metadata ?? {})
    .sort()
    .map((k) => `\\- *${escapeMarkdownV2(k)}*: ${escapeMarkdownV2(event.metadata![k]!)}\n`)
    .join("");
  const text = `*${escapeMarkdownV2(heading)}*\n${escapeMarkdownV2(event.message)}\n${metadata}`;
  const cut = s.channel!.indexOf(":");
  const chatId = cut < 0 ? s.channel! : s.channel!.slice(0, cut);
  const thread = cut < 0 ? undefined : s.channel!.slice(cut + 1);
  return {
    url: `${TELEGRAM_API}/bot${s.token!}/sendMessage`,
    headers: { ...JSON_CONTENT },
    body: goJson({ chat_id: chatId, ...(thread ? { message_thread_id: thread } : {}), text, parse_mode: "MarkdownV2" }),
  };
};
