import { describe, expect, it } from "vitest";
import type { Provider } from "../api/notification/provider.js";
import { shownAddress } from "./notifications.js";

const provider = (spec: Partial<Provider["spec"]>): Provider =>
  ({
    apiVersion: "notification.toolkit.fluxcd.io/v1beta3",
    kind: "Provider",
    metadata: { name: "p", namespace: "ns" },
    spec: { type: "generic", ...spec },
  }) as Provider;

describe("where the dashboard says a Provider sends", () => {
  it("shows scheme and host only: a webhook URL's path, query and user info are often its token", () => {
    expect(shownAddress(provider({ address: "https://hooks.slack.com/services/T000/B000/XXXXSECRET" }))).toBe(
      "https://hooks.slack.com",
    );
    expect(shownAddress(provider({ address: "https://user:pass@example.com:8443/x?token=abc" }))).toBe(
      "https://example.com:8443",
    );
  });

  it("shows a forge's scp-like address by its host, and a Secret's address by the Secret's name only", () => {
    expect(shownAddress(provider({ type: "github", address: "git@github.com:org/app" }))).toBe("github.com");
    expect(shownAddress(provider({ address: "https://x.test/a", secretRef: { name: "webhook" } }))).toBe(
      "from Secret webhook",
    );
    expect(shownAddress(provider({}))).toBe("");
  });
});
