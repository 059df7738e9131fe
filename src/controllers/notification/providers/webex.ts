// webex (notification-controller's webex.go): a markdown message to the room in spec.channel with the
// bot token as Bearer: an emoji by severity, **kind/name.namespace**, the message, then one
// `>**key**: value` line per metadata entry (sorted here; Go ranges the map in random order).
import { goJson } from "../../../util/go-json.js";
import { JSON_CONTENT, type ProviderBuilder } from "./types.js";
import type { FluxEvent } from "../../../runtime/flux-event.js";

export function webexMarkdown(event: FluxEvent): string {
  const o = event.involvedObject;
  const emoji = event.severity === "error" ? "💣" : "✅";
  let b = `${emoji} **${(o.kind ?? "").toLowerCase()}/${o.name ?? ""}.${o.namespace ?? ""}**\n${event.message}\n`;
  for (const k of Object.keys(event.metadata ?? {}).sort()) b += `>**${k}**: ${event.metadata![k]}\n`;
  return b;
}

export const webex: ProviderBuilder = (event, s) => ({
  url: s.address,
  headers: { ...JSON_CONTENT, Authorization: `Bearer ${s.token ?? ""}` },
  // roomId and markdown are omitempty.
  body: goJson({ ...(s.channel ? { roomId: s.channel } : {}), markdown: webexMarkdown(event) }),
});
