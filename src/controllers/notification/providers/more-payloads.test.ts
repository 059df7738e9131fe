import { describe, expect, it } from "vitest";
import type { FluxEvent } from "../../../runtime/flux-event.js";
import { googlechat } from "./googlechat.js";
import { grafana } from "./grafana.js";
import { opsgenie } from "./opsgenie.js";
import { pagerduty } from "./pagerduty.js";
import { checkTelegram, telegram } from "./telegram.js";
import { webex } from "./webex.js";

// notification-controller's testEvent() (client_test.go), with the extra key its telegram test adds.
const testEvent = (over: Partial<FluxEvent> = {}): FluxEvent => ({
  involvedObject: { kind: "GitRepository", namespace: "gitops-system", name: "webapp" },
  severity: "info",
  timestamp: "2020-01-01T00:00:00Z",
  message: "message",
  reason: "reason",
  metadata: { test: "metadata" },
  reportingController: "source-controller",
  reportingInstance: "source-controller-xyz",
  ...over,
});

describe("chat, incident and annotation payloads held to notification-controller's tests", () => {
  it("googlechat: the card header, the message paragraph, a key/value per metadata entry, Go's nulls", () => {
    const req = googlechat(testEvent(), { address: "https://chat.googleapis.com/v1/spaces/x/messages?key=k" })!;
    expect(req.body).toBe(
      '{"cards":[{"header":{"title":"gitrepository/webapp.gitops-system","subtitle":"source-controller","imageUrl":null,"imageStyle":null},"sections":[{"header":"","widgets":[{"textParagraph":{"text":"message"},"keyValue":null}]},{"header":"","widgets":[{"textParagraph":null,"keyValue":{"topLabel":"test","content":"metadata","contentMultiline":false,"bottomLabel":null,"icon":null}}]}]}]}',
    );
    const err = JSON.parse(googlechat(testEvent({ severity: "error" }), { address: "https://x/" })!.body);
    expect(err.cards[0].sections[0].widgets[0].textParagraph.text).toBe('<font color="#ff0000">message</font>');
  });

  it("telegram: MarkdownV2 text with Flux's escaping, chat id and thread from the channel, the token in the path", () => {
    const e = testEvent({ metadata: { test: "metadata", "kubernetes.io/somekey": "some.value" } });
    const req = telegram(e, { address: "", channel: "-1001:42", token: "123:abc" })!;
    expect(req.url).toBe("https://api.telegram.org/bot123:abc/sendMessage");
    const body = JSON.parse(req.body) as Record<string, string>;
    expect(Object.keys(body)).toEqual(["chat_id", "message_thread_id", "text", "parse_mode"]);
    expect(body).toMatchObject({ chat_id: "-1001", message_thread_id: "42", parse_mode: "MarkdownV2" });
    expect(body.text!.split("\n")).toEqual([
      "*💫 gitrepository/webapp/gitops\\-system*",
      "message",
      "\\- *kubernetes\\.io/somekey*: some\\.value",
      "\\- *test*: metadata",
      "",
    ]);
    expect(() => checkTelegram({ address: "", token: "t" })).toThrow("empty Telegram channel");
  });

  it("webex: markdown by severity to the room, the bot token as Bearer", () => {
    const req = webex(testEvent({ severity: "error" }), {
      address: "https://webexapis.com/v1/messages",
      channel: "room",
      token: "t",
    })!;
    expect(req.headers.Authorization).toBe("Bearer t");
    expect(req.body).toBe(
      '{"roomId":"room","markdown":"💣 **gitrepository/webapp.gitops-system**\\nmessage\\n\\u003e**test**: metadata\\n"}',
    );
  });

  it("grafana: an annotation at the event's Unix time with Flux's tags, Bearer or Basic auth", () => {
    const req = grafana(testEvent(), { address: "http://grafana/api/annotations/graphite", token: "t" })!;
    expect(req.body).toBe(
      '{"when":1577836800,"text":"gitrepository/webapp.gitops-system","tags":["flux","source-controller","test: metadata","kind: GitRepository","name: webapp","namespace: gitops-system"]}',
    );
    expect(req.headers.Authorization).toBe("Bearer t");
    const basic = grafana(testEvent(), { address: "http://g/", username: "u", password: "p" })!;
    expect(basic.headers.Authorization).toBe(`Basic ${Buffer.from("u:p").toString("base64")}`);
  });

  it("opsgenie: Kind/name, the message, metadata and severity as details, GenieKey auth", () => {
    const req = opsgenie(testEvent(), { address: "https://api.opsgenie.com/v2/alerts", token: "k" })!;
    expect(req.headers.Authorization).toBe("GenieKey k");
    expect(req.body).toBe(
      '{"message":"GitRepository/webapp","description":"message","details":{"severity":"info","test":"metadata"}}',
    );
  });

  it("pagerduty: trigger with Flux's payload for an error; resolve then a change event for info; Progressing skipped", () => {
    const e = testEvent({
      involvedObject: { kind: "GitRepository", namespace: "flux-system", name: "test-app", uid: "1234" },
      metadata: { key1: "val1", key2: "val2" },
    });
    const s = { address: "https://events.eu.pagerduty.com/v2/enqueue", channel: "notARealRoutingKey" };
    const err = pagerduty({ ...e, severity: "error", reason: "Failed" }, s)!;
    expect(err.url).toBe("https://events.eu.pagerduty.com/v2/enqueue");
    expect(err.body).toBe(
      '{"routing_key":"notARealRoutingKey","event_action":"trigger","dedup_key":"1234","payload":{"summary":"failed: gitrepository/test-app","source":"Flux source-controller","severity":"error","timestamp":"2020-01-01T00:00:00Z","component":"test-app","group":"GitRepository","custom_details":{"message":"message","metadata":{"key1":"val1","key2":"val2"}}}}',
    );
    expect(err.then).toBeUndefined();
    const info = pagerduty({ ...e, reason: "Succeeded" }, s)!;
    expect(info.body).toBe('{"routing_key":"notARealRoutingKey","event_action":"resolve","dedup_key":"1234"}');
    expect(info.then!.url).toBe("https://events.eu.pagerduty.com/v2/change/enqueue");
    expect(info.then!.body).toBe(
      '{"routing_key":"notARealRoutingKey","payload":{"summary":"succeeded: gitrepository/test-app","source":"Flux source-controller","timestamp":"2020-01-01T00:00:00Z","custom_details":{"message":"message","metadata":{"key1":"val1","key2":"val2"}}}}',
    );
    expect(pagerduty({ ...e, reason: "Progressing" }, s)).toBeUndefined();
  });
});
