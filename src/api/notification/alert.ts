// Alert (notification.toolkit.fluxcd.io): which events of which objects go to which Provider. v1beta3
// is stored, v1beta2 served (deprecated) for manifests from older docs; the schemas are Flux's field for
// field — notification-controller v1.9.3 for v1beta3, v1.8.4 (the last to serve it) for v1beta2. Flux's
// v1beta3 has no status at all; flotilla's keeps v1beta2's (observedGeneration, conditions) so a bad
// Alert (a missing Provider, a regex that does not compile) is stated where `kubectl get` shows it
// (decision 0037).
import type { KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import { arr, bool, condition, crdFor, localRef, obj, str, strMap, type Schema } from "../crd.js";
import { SERVED_KINDS } from "../kinds.js";

/** The kinds an Alert's eventSources may name (Flux's enum). */
export const ALERT_SOURCE_KINDS = [
  "Bucket",
  "GitRepository",
  "Kustomization",
  "HelmRelease",
  "HelmChart",
  "HelmRepository",
  "ImageRepository",
  "ImagePolicy",
  "ImageUpdateAutomation",
  "OCIRepository",
  "ArtifactGenerator",
  "ExternalArtifact",
];

/**
 * The fleet kinds an Alert may name too: Flux's enum cannot list them, so flotilla's CRD accepts them
 * beside Flux's (a Flux notification-controller would refuse such an Alert at admission; it has no
 * such objects to watch either).
 */
export const FLEET_ALERT_SOURCE_KINDS = ["Cluster", "FleetKustomization", "FleetHelmRelease"];

export type EventSeverity = "info" | "error";

export interface EventSource {
  apiVersion?: string;
  kind: string;
  /** A name, or `*` for every object of the kind in the namespace. */
  name: string;
  namespace?: string;
  matchLabels?: Record<string, string>;
}

export interface AlertSpec {
  providerRef: { name: string };
  eventSources: EventSource[];
  eventSeverity?: EventSeverity;
  inclusionList?: string[];
  exclusionList?: string[];
  eventMetadata?: Record<string, string>;
  summary?: string;
  suspend?: boolean;
}

export type Alert = KubeObject & {
  spec: AlertSpec;
  status?: { observedGeneration?: number; conditions?: Condition[]; lastHandledReconcileAt?: string };
};

const eventSource = obj(
  {
    apiVersion: str(),
    kind: str({ enum: [...ALERT_SOURCE_KINDS, ...FLEET_ALERT_SOURCE_KINDS] }),
    matchLabels: strMap(),
    name: str({ maxLength: 253, minLength: 1 }),
    namespace: str({ maxLength: 253, minLength: 1 }),
  },
  ["kind", "name"],
);

/** The same in both versions. */
const spec = obj(
  {
    eventMetadata: strMap(),
    eventSeverity: str({ default: "info", enum: ["info", "error"] }),
    eventSources: arr(eventSource),
    exclusionList: arr(str()),
    inclusionList: arr(str()),
    providerRef: localRef(),
    summary: str({ maxLength: 255 }),
    suspend: bool(),
  },
  ["eventSources", "providerRef"],
);

const observedGeneration: Schema = { type: "integer", format: "int64" };

export const alertCrd = () =>
  crdFor(SERVED_KINDS.Alert, {
    v1beta3: { spec, status: obj({ conditions: arr(condition()), observedGeneration }) },
    v1beta2: { spec, status: obj({ conditions: arr(condition()), lastHandledReconcileAt: str(), observedGeneration }) },
  });
