// Kubernetes Events for each reconcile outcome (what `kubectl describe` and `flux events` show).
import { randomBytes } from "node:crypto";
import { USED_KINDS } from "../api/kinds.js";
import { pathOf } from "../api/paths.js";
import type { KubeClient } from "../kube/client.js";
import type { KubeObject } from "../api/meta/object.js";
import type { Logger } from "./logger.js";
import { fluxEventOf, type FluxEvent } from "./flux-event.js";

export type EventType = "Normal" | "Warning";

/** Takes Flux's payload of every recorded event; must not block (the notification dispatcher queues). */
export type EventSink = (event: FluxEvent, obj: KubeObject) => void;

export class EventRecorder {
  /** Where each event's Flux payload goes besides the API server (the in-process notification dispatcher). */
  sink?: EventSink;

  constructor(
    private readonly client: KubeClient,
    private readonly component: string,
    private readonly log: Logger,
    /** reportingInstance of the Flux payload: the process's identity. */
    private readonly instance = component,
  ) {}

  /** Records an Event on the object; failures are logged, never fail the reconcile. */
  async record(
    obj: KubeObject,
    type: EventType,
    reason: string,
    message: string,
    annotations: Record<string, string> = {},
    /** Labels on the Kubernetes Event only (not Flux metadata): what a reader selects the Event by. */
    labels?: Record<string, string>,
  ): Promise<void> {
    const namespace = obj.metadata.namespace ?? "default";
    if (this.sink) {
      try {
        this.sink(fluxEventOf(obj, type, reason, message, annotations, this.instance), obj);
      } catch (err) {
        this.log.error("failed to hand the event to the notification dispatcher", {
          reason,
          error: (err as Error).message,
        });
      }
    }
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
    const event = {
      apiVersion: "v1",
      kind: "Event",
      metadata: {
        name: `${obj.metadata.name}.${randomBytes(8).toString("hex")}`,
        namespace,
        annotations,
        ...(labels ? { labels } : {}),
      },
      involvedObject: {
        apiVersion: obj.apiVersion,
        kind: obj.kind,
        name: obj.metadata.name,
        namespace,
        uid: obj.metadata.uid,
        resourceVersion: obj.metadata.resourceVersion,
      },
      reason,
      message: message.length > 1024 ? `${message.slice(0, 1021)}...` : message,
      type,
      source: { component: this.component },
      reportingComponent: this.component,
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    };
    try {
      await this.client.create(pathOf(USED_KINDS.Event, namespace), event);
    } catch (err) {
      this.log.error("failed to record event", { reason, error: (err as Error).message });
    }
  }
}
