// alertmanager (notification-controller's alertmanager.go): one firing alert posted to
// /api/v2/alerts, labelled with the event's metadata and its object, annotated with the message and
// summary. endsAt is Go's zero time (the field's omitempty does not apply to a struct), so Alertmanager
// resolves the alert after its resolve_timeout.
import { goJson, sortedMap } from "../../../util/go-json.js";
import { JSON_CONTENT, basicAuth, type ProviderBuilder } from "./types.js";

/** golang.org/x/text/cases Title: each word's first letter upper case, the rest lower case. */
export const titleCase = (s: string) =>
  s.replace(/[\p{L}\p{N}'’]+/gu, (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());

export const alertmanager: ProviderBuilder = (event, s) => {
  const metadata = { ...(event.metadata ?? {}) };
  const annotations: Record<string, string> = { message: event.message };
  if ("summary" in metadata) {
    annotations.summary = metadata.summary!;
    delete metadata.summary;
  }
  const o = event.involvedObject;
  const labels: Record<string, string> = {
    ...metadata,
    alertname: `Flux${o.kind ?? ""}${titleCase(event.reason)}`,
    severity: event.severity,
    reason: event.reason,
    kind: o.kind ?? "",
    name: o.name ?? "",
    namespace: o.namespace ?? "",
    reportingcontroller: event.reportingController,
  };
  const body = goJson([
    {
      status: "firing",
      labels: sortedMap(labels),
      annotations: sortedMap(annotations),
      startsAt: event.timestamp,
      endsAt: "0001-01-01T00:00:00Z",
    },
  ]);
  const headers: Record<string, string> = { ...JSON_CONTENT };
  if (s.token) headers.Authorization = `Bearer ${s.token}`;
  if (s.username && s.password) headers.Authorization = basicAuth(s.username, s.password);
  return { url: s.address, headers, body };
};
