// googlechat (notification-controller's google_chat.go): one card titled `kind/name.namespace`, the
// reporting controller as subtitle, the message (red for errors) and the metadata as key/value
// widgets. Go's pointer fields without omitempty are sent as null; the metadata map, ranged in random
// order by Go, is sorted by key here (one of the orders Flux may send).
import { goJson } from "../../../util/go-json.js";
import { JSON_CONTENT, type ProviderBuilder } from "./types.js";

const widget = (textParagraph: unknown, keyValue: unknown) => ({ textParagraph, keyValue });

export const googlechat: ProviderBuilder = (event, s) => {
  const o = event.involvedObject;
  const text = event.severity === "error" ? `<font color="#ff0000">${event.message}</font>` : event.message;
  const sections: Array<{ header: string; widgets: unknown[] }> = [{ header: "", widgets: [widget({ text }, null)] }];
  const keys = Object.keys(event.metadata ?? {}).sort();
  if (keys.length)
    sections.push({
      header: "",
      widgets: keys.map((k) =>
        widget(null, {
          topLabel: k,
          content: event.metadata![k],
          contentMultiline: false,
          bottomLabel: null,
          icon: null,
        }),
      ),
    });
  const header = {
    title: `${(o.kind ?? "").toLowerCase()}/${o.name ?? ""}.${o.namespace ?? ""}`,
    subtitle: event.reportingController,
    imageUrl: null,
    imageStyle: null,
  };
  return { url: s.address, headers: { ...JSON_CONTENT }, body: goJson({ cards: [{ header, sections }] }) };
};
