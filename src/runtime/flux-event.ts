// Flux's event payload (github.com/fluxcd/pkg/apis/event/v1beta1 Event): what every Flux controller posts
// to notification-controller for each Kubernetes Event it records, and what flotilla's controllers hand
// the in-process notification dispatcher. Fields in Go's order, so goJson writes Flux's bytes.
import type { KubeObject } from "../api/meta/object.js";
import { FLEET_GROUP, HELM_GROUP, KUSTOMIZE_GROUP, NOTIFICATION_GROUP, SOURCE_GROUP } from "../api/kinds.js";

export const EVENT_GROUP = "event.toolkit.fluxcd.io";

export type EventSeverity = "info" | "error";

/** corev1.ObjectReference, in its Go field order (every field omitempty). */
export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface FluxEvent {
  involvedObject: ObjectReference;
  severity: EventSeverity;
  /** RFC 3339, seconds (metav1.Time). */
  timestamp: string;
  message: string;
  reason: string;
  metadata?: Record<string, string>;
  reportingController: string;
  reportingInstance?: string;
}

/**
 * The controller name Flux would report for a kind's group: Alertmanager labels, the Slack username and
 * generic receivers' gotk-component header carry it, and users route on it. The fleet kinds are flotilla's.
 */
export function reportingControllerOf(apiVersion: string | undefined): string {
  const group = apiVersion?.includes("/") ? apiVersion.split("/")[0] : "";
  switch (group) {
    case SOURCE_GROUP:
      return "source-controller";
    case KUSTOMIZE_GROUP:
      return "kustomize-controller";
    case HELM_GROUP:
      return "helm-controller";
    case NOTIFICATION_GROUP:
      return "notification-controller";
    case FLEET_GROUP:
      return "flotilla-controller";
    default:
      return "flotilla-controller";
  }
}

/** The group of an involved object's apiVersion ("" for the core group). */
export const groupOf = (ref: ObjectReference) => (ref.apiVersion?.includes("/") ? ref.apiVersion.split("/")[0]! : "");

/** metav1.Time as Go marshals it: UTC, whole seconds. */
export const goTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/** The Flux event for a Kubernetes Event flotilla records: Normal is info, Warning error, as Flux's recorder maps them. */
export function fluxEventOf(
  obj: KubeObject,
  type: "Normal" | "Warning",
  reason: string,
  message: string,
  annotations: Record<string, string>,
  instance: string,
  now = new Date(),
): FluxEvent {
  const ref: ObjectReference = {
    kind: obj.kind,
    namespace: obj.metadata.namespace,
    name: obj.metadata.name,
    uid: obj.metadata.uid,
    apiVersion: obj.apiVersion,
    resourceVersion: obj.metadata.resourceVersion,
  };
  const metadata = Object.keys(annotations).length ? { ...annotations } : undefined;
  return {
    involvedObject: Object.fromEntries(Object.entries(ref).filter(([, v]) => v)) as ObjectReference,
    severity: type === "Warning" ? "error" : "info",
    timestamp: goTime(now),
    message,
    reason,
    ...(metadata ? { metadata } : {}),
    reportingController: reportingControllerOf(obj.apiVersion),
    reportingInstance: instance,
  };
}
