// msteams (notification-controller's teams.go): an Adaptive Card 1.4 for Workflows webhooks, or the
// deprecated MessageCard when the address is an Office 365 connector (*.webhook.office.com). Facts:
// "summary" first, the rest sorted by key (the connector card's order is Go's map order; sorted here).
import { goJson } from "../../../util/go-json.js";
import type { FluxEvent } from "../../../runtime/flux-event.js";
import { JSON_CONTENT, type ProviderBuilder } from "./types.js";

const objName = (e: FluxEvent) =>
  `${(e.involvedObject.kind ?? "").toLowerCase()}/${e.involvedObject.name ?? ""}.${e.involvedObject.namespace ?? ""}`;

function connectorCard(e: FluxEvent) {
  const name = objName(e);
  const facts = Object.keys(e.metadata ?? {})
    .sort()
    .map((k) => ({ name: k, value: e.metadata![k]! }));
  return {
    "@type": "MessageCard",
    "@context": "http://schema.org/extensions",
    themeColor: e.severity === "error" ? "FF0000" : "0076D7",
    summary: name,
    sections: [{ activityTitle: e.message, activitySubtitle: name, facts }],
  };
}

function adaptiveCard(e: FluxEvent) {
  const meta = e.metadata ?? {};
  const facts = [
    ...("summary" in meta ? [{ title: "summary", value: meta.summary! }] : []),
    ...Object.keys(meta)
      .filter((k) => k !== "summary")
      .sort()
      .map((k) => ({ title: k, value: meta[k]! })),
  ];
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          body: [
            {
              type: "Container",
              items: [
                { type: "TextBlock", text: objName(e), size: "large", weight: "bolder", wrap: true },
                {
                  type: "TextBlock",
                  text: e.message,
                  ...(e.severity === "error" ? { color: "attention" } : {}),
                  wrap: true,
                },
                // facts is omitempty in Go: an event without metadata sends a FactSet with no facts key.
                { type: "FactSet", ...(facts.length ? { facts } : {}) },
              ],
            },
          ],
          msteams: { width: "Full" },
        },
      },
    ],
  };
}

export const isOfficeConnector = (address: string) => {
  try {
    return new URL(address).hostname.endsWith(".webhook.office.com");
  } catch {
    return false;
  }
};

export const msteams: ProviderBuilder = (event, s) => ({
  url: s.address,
  headers: { ...JSON_CONTENT },
  body: goJson(isOfficeConnector(s.address) ? connectorCard(event) : adaptiveCard(event)),
});
