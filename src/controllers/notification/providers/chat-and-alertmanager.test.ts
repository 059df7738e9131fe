import { describe, expect, it } from "vitest";
import type { FluxEvent } from "../../../runtime/flux-event.js";
import { alertmanager, titleCase } from "./alertmanager.js";
import { msteams } from "./msteams.js";
import { discord, discordUrl, slack } from "./slack.js";

const event: FluxEvent = {
  involvedObject: { kind: "Kustomization", namespace: "apps", name: "web" },
  severity: "error",
  timestamp: "2022-09-30T06:40:29Z",
  message: "Health check failed\nsecond line",
  reason: "HealthCheckFailed",
  metadata: { revision: "main@sha1:1", summary: "prod", env: "eu" },
  reportingController: "kustomize-controller",
};

describe("alertmanager, slack, discord and msteams payloads (notification-controller's structs, Go's field order)", () => {
  it("alertmanager: one firing alert, labels from metadata and the object, summary as annotation, Go's zero endsAt", () => {
    expect(titleCase("HealthCheckFailed")).toBe("Healthcheckfailed");
    const req = alertmanager(event, { address: "http://am/api/v2/alerts", token: "t" })!;
    expect(req.headers.Authorization).toBe("Bearer t");
    expect(req.body).toBe(
      '[{"status":"firing","labels":{"alertname":"FluxKustomizationHealthcheckfailed","env":"eu","kind":"Kustomization","name":"web","namespace":"apps","reason":"HealthCheckFailed","reportingcontroller":"kustomize-controller","revision":"main@sha1:1","severity":"error"},"annotations":{"message":"Health check failed\\nsecond line","summary":"prod"},"startsAt":"2022-09-30T06:40:29Z","endsAt":"0001-01-01T00:00:00Z"}]',
    );
  });

  it("slack: channel, username defaulting to the reporting controller, a danger attachment with a one-line fallback", () => {
    const body = JSON.parse(slack(event, { address: "http://hooks/x", channel: "#flux" })!.body) as Record<
      string,
      unknown
    >;
    expect(Object.keys(body)).toEqual(["channel", "username", "icon_url", "icon_emoji", "attachments"]);
    expect(body).toMatchObject({
      channel: "#flux",
      username: "kustomize-controller",
      attachments: [
        {
          fallback: "kustomization/web.apps: Health check failed",
          color: "danger",
          author_name: "kustomization/web.apps",
          mrkdwn_in: ["text"],
          fields: [
            { title: "env", value: "eu", short: false },
            { title: "revision", value: "main@sha1:1", short: false },
            { title: "summary", value: "prod", short: false },
          ],
        },
      ],
    });
  });

  it("discord: Slack's payload at <hook>/slack, no channel and no fallback", () => {
    expect(discordUrl("https://discord.com/api/webhooks/1/abc")).toBe("https://discord.com/api/webhooks/1/abc/slack");
    expect(discordUrl("https://discord.com/api/webhooks/1/abc/slack")).toBe(
      "https://discord.com/api/webhooks/1/abc/slack",
    );
    const body = JSON.parse(discord(event, { address: "https://discord.com/api/webhooks/1/abc" })!.body) as {
      channel: string;
      attachments: { fallback: string }[];
    };
    expect(body.channel).toBe("");
    expect(body.attachments[0]!.fallback).toBe("");
  });

  it("msteams: an Adaptive Card with summary first and the rest sorted; the connector card for *.webhook.office.com", () => {
    const card = JSON.parse(msteams(event, { address: "https://prod.workflows.example/x" })!.body) as {
      attachments: { content: { body: { items: Record<string, unknown>[] }[] } }[];
    };
    const items = card.attachments[0]!.content.body[0]!.items;
    expect(items[1]).toEqual({ type: "TextBlock", text: event.message, color: "attention", wrap: true });
    expect(items[2]).toEqual({
      type: "FactSet",
      facts: [
        { title: "summary", value: "prod" },
        { title: "env", value: "eu" },
        { title: "revision", value: "main@sha1:1" },
      ],
    });
    const legacy = JSON.parse(msteams(event, { address: "https://x.webhook.office.com/hook" })!.body) as Record<
      string,
      unknown
    >;
    expect(legacy).toMatchObject({ "@type": "MessageCard", themeColor: "FF0000", summary: "kustomization/web.apps" });
  });
});
