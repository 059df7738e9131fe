// pagerduty (notification-controller's pagerduty.go, go-pagerduty v1.8.0's structs): an Events API v2
// event at <scheme>://<host>/v2/enqueue — trigger with a payload for an error, resolve for info, deduped
// on the object's UID — and for info also a change event at /v2/change/enqueue. The routing key is
// spec.channel. Progressing events are not sent.
import { goJson, sortedMap } from "../../../util/go-json.js";
import type { FluxEvent } from "../../../runtime/flux-event.js";
import { nameAndDescription } from "./forge.js";
import { JSON_CONTENT, type ProviderBuilder } from "./types.js";

const details = (e: FluxEvent) => ({
  message: e.message,
  metadata: e.metadata && Object.keys(e.metadata).length ? sortedMap(e.metadata) : null,
});

export function pagerdutyEvent(e: FluxEvent, routingKey: string) {
  const { name, description } = nameAndDescription(e);
  const uid = e.involvedObject.uid;
  return {
    routing_key: routingKey,
    event_action: e.severity === "error" ? "trigger" : "resolve",
    ...(uid ? { dedup_key: uid } : {}),
    ...(e.severity === "error"
      ? {
          payload: {
            summary: `${description}: ${name}`,
            source: `Flux ${e.reportingController}`,
            severity: "error",
            timestamp: e.timestamp,
            ...(e.involvedObject.name ? { component: e.involvedObject.name } : {}),
            ...(e.involvedObject.kind ? { group: e.involvedObject.kind } : {}),
            custom_details: details(e),
          },
        }
      : {}),
  };
}

export function pagerdutyChange(e: FluxEvent, routingKey: string) {
  const { name, description } = nameAndDescription(e);
  return {
    routing_key: routingKey,
    payload: {
      summary: `${description}: ${name}`,
      source: `Flux ${e.reportingController}`,
      timestamp: e.timestamp,
      custom_details: details(e),
    },
  };
}

export const pagerduty: ProviderBuilder = (event, s) => {
  if (event.reason === "Progressing") return undefined;
  const u = new URL(s.address);
  const endpoint = `${u.protocol}//${u.host}`;
  const key = s.channel ?? "";
  return {
    url: `${endpoint}/v2/enqueue`,
    headers: { ...JSON_CONTENT },
    body: goJson(pagerdutyEvent(event, key)),
    ...(event.severity === "info"
      ? {
          then: {
            url: `${endpoint}/v2/change/enqueue`,
            headers: { ...JSON_CONTENT },
            body: goJson(pagerdutyChange(event, key)),
          },
        }
      : {}),
  };
};
