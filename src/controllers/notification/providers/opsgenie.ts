// opsgenie (notification-controller's opsgenie.go): an alert `Kind/name` with the message as
// description and the metadata plus `severity` as details (a Go map: keys sorted), authorised with
// `GenieKey <token>`.
import { ProviderInvalid } from "../errors.js";
import { goJson, sortedMap } from "../../../util/go-json.js";
import { JSON_CONTENT, type ProviderBuilder, type SettingsCheck } from "./types.js";

export const checkOpsgenie: SettingsCheck = (s) => {
  if (!s.token)
    throw new ProviderInvalid(
      "empty Opsgenie apikey/token: set the 'token' key of the Secret named by spec.secretRef",
      "TokenNotSet",
    );
};

export const opsgenie: ProviderBuilder = (event, s) => {
  checkOpsgenie(s);
  return {
    url: s.address,
    headers: { ...JSON_CONTENT, Authorization: `GenieKey ${s.token!}` },
    body: goJson({
      message: `${event.involvedObject.kind ?? ""}/${event.involvedObject.name ?? ""}`,
      description: event.message,
      details: sortedMap({ ...(event.metadata ?? {}), severity: event.severity }),
    }),
  };
};
