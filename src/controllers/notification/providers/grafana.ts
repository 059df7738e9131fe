// grafana (notification-controller's grafana.go): an annotation (Graphite payload) at the address,
// `when` the event's Unix time in seconds, text `kind/name.namespace`, tags: flux, the reporting
// controller, `key: value` per metadata entry (':' in either turned into '|'; sorted here, Go ranges
// the map at random), then kind, name, namespace. Bearer token, else Basic with username/password.
import { goJson } from "../../../util/go-json.js";
import { JSON_CONTENT, basicAuth, type ProviderBuilder } from "./types.js";

export const grafana: ProviderBuilder = (event, s) => {
  const o = event.involvedObject;
  const tags = ["flux", event.reportingController];
  for (const k of Object.keys(event.metadata ?? {}).sort())
    tags.push(`${k.replaceAll(":", "|")}: ${event.metadata![k]!.replaceAll(":", "|")}`);
  tags.push(`kind: ${o.kind ?? ""}`, `name: ${o.name ?? ""}`, `namespace: ${o.namespace ?? ""}`);
  const auth: Record<string, string> = s.token
    ? { Authorization: `Bearer ${s.token}` }
    : s.username && s.password
      ? { Authorization: basicAuth(s.username, s.password) }
      : {};
  return {
    url: s.address,
    headers: { ...JSON_CONTENT, ...auth },
    body: goJson({
      when: Math.floor(Date.parse(event.timestamp) / 1000),
      text: `${(o.kind ?? "").toLowerCase()}/${o.name ?? ""}.${o.namespace ?? ""}`,
      tags,
    }),
  };
};
