// generic and generic-hmac (notification-controller's forwarder.go): the event itself, as JSON, with
// the gotk-component header, the Secret's headers, and for generic-hmac X-Signature: sha256=<hex HMAC
// of the body keyed with the Secret's token>.
import { createHmac } from "node:crypto";
import { goJson, sortedMap } from "../../../util/go-json.js";
import type { FluxEvent } from "../../../runtime/flux-event.js";
import { ProviderInvalid } from "../errors.js";
import { JSON_CONTENT, type ProviderBuilder } from "./types.js";

/** The event as Go marshals eventv1.Event: metadata omitted when empty, its keys sorted. */
export function eventJson(event: FluxEvent): string {
  const { metadata, reportingInstance, ...rest } = event;
  return goJson({
    involvedObject: rest.involvedObject,
    severity: rest.severity,
    timestamp: rest.timestamp,
    message: rest.message,
    reason: rest.reason,
    ...(metadata && Object.keys(metadata).length ? { metadata: sortedMap(metadata) } : {}),
    reportingController: rest.reportingController,
    ...(reportingInstance ? { reportingInstance } : {}),
  });
}

export const sign = (body: string, key: string) => createHmac("sha256", key).update(body).digest("hex");

const forwarder =
  (hmac: boolean): ProviderBuilder =>
  (event, s) => {
    if (hmac && !s.token)
      throw new ProviderInvalid("generic-hmac needs the HMAC key: the secretRef's 'token' key is missing or empty");
    const body = eventJson(event);
    return {
      url: s.address,
      headers: {
        ...JSON_CONTENT,
        "gotk-component": event.reportingController,
        ...(s.headers ?? {}),
        ...(hmac ? { "X-Signature": `sha256=${sign(body, s.token!)}` } : {}),
      },
      body,
    };
  };

export const generic = forwarder(false);
export const genericHmac = forwarder(true);
