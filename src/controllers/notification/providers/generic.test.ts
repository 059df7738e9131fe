import { describe, expect, it } from "vitest";
import { eventJson, generic, genericHmac } from "./generic.js";
import type { FluxEvent } from "../../../runtime/flux-event.js";

// notification-controller's testEvent() (internal/notifier/client_test.go) with the timestamp its
// forwarder test pins (1664520029).
const fluxTestEvent: FluxEvent = {
  involvedObject: { kind: "GitRepository", namespace: "gitops-system", name: "webapp" },
  severity: "info",
  timestamp: new Date(1664520029 * 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
  message: "message",
  reason: "reason",
  metadata: { test: "metadata" },
  reportingController: "source-controller",
  reportingInstance: "source-controller-xyz",
};

describe("generic and generic-hmac providers", () => {
  it("sign the body as notification-controller does: its forwarder test's golden signature for the same event and key", () => {
    const req = genericHmac(fluxTestEvent, {
      address: "http://example.org",
      token: "7152fed34dd6149a7c75a276c510da27cb6f82b0",
    })!;
    expect(req.headers["X-Signature"]).toBe("sha256=65b018549b1254e7226d1c08f9567ee45bc9de0fc4e7b1a40253f9a018b08be7");
    expect(req.headers["gotk-component"]).toBe("source-controller");
  });

  it("post the event as Go marshals it: struct order, metadata keys sorted, <>& escaped, empty metadata left out", () => {
    expect(eventJson({ ...fluxTestEvent, message: "a<b>&c", metadata: { z: "1", a: "2" } })).toBe(
      '{"involvedObject":{"kind":"GitRepository","namespace":"gitops-system","name":"webapp"},"severity":"info","timestamp":"2022-09-30T06:40:29Z","message":"a\\u003cb\\u003e\\u0026c","reason":"reason","metadata":{"a":"2","z":"1"},"reportingController":"source-controller","reportingInstance":"source-controller-xyz"}',
    );
    expect(eventJson({ ...fluxTestEvent, metadata: {} })).not.toContain("metadata");
  });

  it("send the Secret's headers; generic never signs, generic-hmac without a token is refused by name", () => {
    const req = generic(fluxTestEvent, { address: "http://example.org", headers: { Authorization: "token" } })!;
    expect(req.headers).toMatchObject({ Authorization: "token", "Content-Type": "application/json" });
    expect(req.headers["X-Signature"]).toBeUndefined();
    expect(() => genericHmac(fluxTestEvent, { address: "http://example.org" })).toThrow(/secretRef's 'token' key/);
  });
});
