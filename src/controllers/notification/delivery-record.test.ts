import { describe, expect, it } from "vitest";
import type { FluxEvent } from "../../runtime/flux-event.js";
import { deliveredMessage, deliveryMetadata, NOTIFIED_UID_LABEL, readDeliveryRecord } from "./delivery-record.js";

const event = (over: Partial<FluxEvent> = {}): FluxEvent => ({
  involvedObject: {
    kind: "Kustomization",
    namespace: "apps",
    name: "web",
    uid: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
  },
  severity: "error",
  timestamp: "2026-11-28T02:00:00Z",
  message: "health check failed",
  reason: "HealthCheckFailed",
  reportingController: "kustomize-controller",
  ...over,
});

describe("the record of a notification on its Alert's Event", () => {
  it("round-trips what was notified through the Event's annotations, the object's UID as a label", () => {
    const { annotations, labels } = deliveryMetadata(event(), "slack");
    expect(labels).toEqual({ [NOTIFIED_UID_LABEL]: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0" });
    expect(readDeliveryRecord(annotations)).toEqual({
      object: "Kustomization/apps/web",
      provider: "slack",
      severity: "error",
      reason: "HealthCheckFailed",
      message: "health check failed",
    });
  });

  it("carries no label for an event posted without a UID, and cuts a long message to 1024 characters", () => {
    const long = "x".repeat(5000);
    const { annotations, labels } = deliveryMetadata(
      event({ involvedObject: { kind: "Kustomization", namespace: "apps", name: "web" }, message: long }),
      "p",
    );
    expect(labels).toBeUndefined();
    const message = readDeliveryRecord(annotations)!.message;
    expect(message).toHaveLength(1024);
    expect(message.endsWith("...")).toBe(true);
  });

  it("reads nothing from an Event another writer annotated", () => {
    expect(readDeliveryRecord(undefined)).toBeUndefined();
    expect(readDeliveryRecord({ "kustomize.toolkit.fluxcd.io/revision": "main@sha1:abc" })).toBeUndefined();
  });

  it("says in the Event's message what went where", () => {
    expect(deliveredMessage(event(), "slack")).toBe(
      "sent error notification 'HealthCheckFailed' for Kustomization/apps/web to Provider 'slack'",
    );
  });
});
