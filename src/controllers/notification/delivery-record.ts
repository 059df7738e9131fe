// Each notification the dispatcher delivers or fails to deliver is a Kubernetes Event on the Alert that
// routed it — flotilla keeps no store of its own: Flux's Warning `NotificationDispatchFailed` for a
// failure, flotilla's Normal `NotificationDelivered` for a success. Both carry what was notified in
// annotations (object, provider, severity, reason, message) and the notified object's UID as a label, so
// the dashboard lists an app's last notifications with one label-selected list and a Provider's
// failures from its namespace's Alert events. Nothing here holds a Secret value: the message is the
// notified event's own (already a Kubernetes Event on the object), errors are send.ts's redacted ones.
import type { FluxEvent } from "../../runtime/flux-event.js";

export const DELIVERED_REASON = "NotificationDelivered";
export const DISPATCH_FAILED_REASON = "NotificationDispatchFailed";
/** The notified object's UID, on the Alert's Event: `-l notification.flotilla.dev/object-uid=<uid>`. */
export const NOTIFIED_UID_LABEL = "notification.flotilla.dev/object-uid";

const PREFIX = "notification.flotilla.dev/";
const KEYS = ["object", "provider", "severity", "reason", "message"] as const;
const MAX_MESSAGE = 1024;

export interface DeliveryRecord {
  /** Kind/namespace/name of the object the notification was about. */
  object: string;
  /** The Provider's name (in the Alert's namespace). */
  provider: string;
  severity: string;
  reason: string;
  message: string;
}

/** A valid label value (63 characters, alphanumerics and -_. inside): a UID is one. */
const LABEL_VALUE = /^([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$/;

/** The annotations and labels of the Alert's Event recording a notification about `event` to `provider`. */
export function deliveryMetadata(
  event: FluxEvent,
  provider: string,
): { annotations: Record<string, string>; labels?: Record<string, string> } {
  const o = event.involvedObject;
  const message = event.message.length > MAX_MESSAGE ? `${event.message.slice(0, MAX_MESSAGE - 3)}...` : event.message;
  const record: DeliveryRecord = {
    object: `${o.kind ?? ""}/${o.namespace ?? ""}/${o.name ?? ""}`,
    provider,
    severity: event.severity,
    reason: event.reason,
    message,
  };
  const annotations = Object.fromEntries(KEYS.map((k) => [`${PREFIX}${k}`, record[k]]));
  const uid = o.uid;
  return { annotations, ...(uid && LABEL_VALUE.test(uid) ? { labels: { [NOTIFIED_UID_LABEL]: uid } } : {}) };
}

/** The record an Event's annotations carry; undefined for an Event that is not a notification's. */
export function readDeliveryRecord(annotations: Record<string, string> | undefined): DeliveryRecord | undefined {
  if (!annotations?.[`${PREFIX}object`] || annotations[`${PREFIX}provider`] === undefined) return undefined;
  const at = (k: (typeof KEYS)[number]) => annotations[`${PREFIX}${k}`] ?? "";
  return {
    object: at("object"),
    provider: at("provider"),
    severity: at("severity"),
    reason: at("reason"),
    message: at("message"),
  };
}

/** The Alert's Event message for a delivered notification (what `flotilla events` shows). */
export const deliveredMessage = (event: FluxEvent, provider: string) =>
  `sent ${event.severity} notification '${event.reason}' for ${deliveryMetadata(event, provider).annotations[`${PREFIX}object`]} to Provider '${provider}'`;
