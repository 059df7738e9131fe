// Kubernetes Events for each reconcile outcome (what `kubectl describe` and `flux events` show).
import { randomBytes } from "node:crypto";
import { USED_KINDS } from "../api/kinds.js";
import { pathOf } from "../api/paths.js";
import type { KubeClient } from "../kube/client.js";
import type { KubeObject } from "../api/meta/object.js";
import type { Logger } from "./logger.js";

export type EventType = "Normal" | "Warning";

export class EventRecorder {
  constructor(
    private readonly client: KubeClient,
    private readonly component: string,
    private readonly log: Logger,
  ) {}

  /** Records an Event on the object; failures are logged, never fail the reconcile. */
  async record(
    obj: KubeObject,
    type: EventType,
    reason: string,
    message: string,
    annotations: Record<string, string> = {},
  ): Promise<void> {
    const namespace = obj.metadata.namespace ?? "default";
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
    const event = {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: `${obj.metadata.name}.${randomBytes(8).toString("hex")}`, namespace, annotations },
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
