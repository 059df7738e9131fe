// What `flotilla get` prints for each kind, column for column as the flux CLI (cmd/flux/get_*.go):
// NAME [SOURCE] REVISION SUSPENDED READY MESSAGE (receivers: no REVISION), NAMESPACE first with -A,
// `<kind>/<name>` in `get all`.
import { type KindEntry, SERVED_KINDS } from "../../../api/kinds.js";
import type { KubeObject } from "../../../api/meta/object.js";
import { truncateHex } from "../../flux-table.js";

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface FluxObject extends KubeObject {
  spec?: {
    suspend?: boolean;
    type?: string;
    sourceRef?: { kind: string; name: string; namespace?: string };
    chartRef?: { kind: string; name: string; namespace?: string };
    chart?: { spec?: { sourceRef?: { kind: string; name: string; namespace?: string } } };
  };
  status?: {
    conditions?: Condition[];
    artifact?: { revision?: string };
    lastAppliedRevision?: string;
    lastAttemptedRevision?: string;
    history?: { chartVersion?: string }[];
  };
}

export interface RowOptions {
  allNamespaces: boolean;
  /** `get all`: names as `<lower-case kind>/<name>`. */
  withKind: boolean;
  showSource: boolean;
}

export interface GetKind {
  entry: KindEntry;
  /** Whether the kind has a SOURCE column under --show-source. */
  hasSource: boolean;
  /** The REVISION column's header where the kind shows something else there (a cluster's Kubernetes version). */
  revisionHeader?: string;
  /** No REVISION column at all (flux's get receivers: NAME SUSPENDED READY MESSAGE). */
  noRevision?: boolean;
  /** No SUSPENDED column either (flux's get alert-providers: NAME READY MESSAGE). */
  noSuspended?: boolean;
  /** REVISION and MESSAGE of one object. */
  revisionAndMessage(o: FluxObject, ready: { status: string; message: string }): [revision: string, message: string];
  source?(o: FluxObject): string;
}

/** Flux's statusAndMessage: no Ready condition reads as False, "waiting to be reconciled". */
export function readyOf(o: FluxObject): { status: string; message: string } {
  const c = o.status?.conditions?.find((x) => x.type === "Ready");
  return c ? { status: c.status, message: c.message ?? "" } : { status: "False", message: "waiting to be reconciled" };
}

/** --status-selector type=status: condition type and status compared case-insensitively. */
export function statusMatches(o: FluxObject, type: string, status: string): boolean {
  const c = o.status?.conditions?.findLast((x) => x.type.toLowerCase() === type.toLowerCase());
  return !!c && c.status.toLowerCase() === status.toLowerCase();
}

const ref = (o: FluxObject, r?: { kind: string; name: string; namespace?: string }) =>
  r ? `${r.kind}/${r.namespace || o.metadata.namespace}/${r.name}` : "";

const artifactRevision: GetKind["revisionAndMessage"] = (o, r) => [
  truncateHex(o.status?.artifact?.revision ?? ""),
  truncateHex(r.message),
];

const readyClusters: GetKind["revisionAndMessage"] = (o, r) => {
  const counts = (o.status as { counts?: { ready: number; total: number } } | undefined)?.counts;
  return [counts ? `${counts.ready}/${counts.total}` : "", r.message];
};

export const GET_KINDS = {
  GitRepository: { entry: SERVED_KINDS.GitRepository, hasSource: false, revisionAndMessage: artifactRevision },
  HelmRepository: {
    entry: SERVED_KINDS.HelmRepository,
    hasSource: false,
    // An OCI HelmRepository has no artifact and no Ready condition of its own (flux prints it Ready).
    revisionAndMessage: (o, r) =>
      o.spec?.type === "oci"
        ? [truncateHex(o.status?.artifact?.revision ?? ""), "Helm repository is Ready"]
        : artifactRevision(o, r),
  },
  // A chart's revision is a SemVer: never shortened.
  HelmChart: {
    entry: SERVED_KINDS.HelmChart,
    hasSource: false,
    revisionAndMessage: (o, r) => [o.status?.artifact?.revision ?? "", truncateHex(r.message)],
  },
  OCIRepository: { entry: SERVED_KINDS.OCIRepository, hasSource: false, revisionAndMessage: artifactRevision },
  Kustomization: {
    entry: SERVED_KINDS.Kustomization,
    hasSource: true,
    revisionAndMessage: (o, r) => [truncateHex(o.status?.lastAppliedRevision ?? ""), truncateHex(r.message)],
    source: (o) => ref(o, o.spec?.sourceRef),
  },
  HelmRelease: {
    entry: SERVED_KINDS.HelmRelease,
    hasSource: true,
    revisionAndMessage: (o, r) => [
      o.status?.history?.[0]?.chartVersion ?? o.status?.lastAttemptedRevision ?? "",
      r.message,
    ],
    source: (o) => ref(o, o.spec?.chartRef ?? o.spec?.chart?.spec?.sourceRef),
  },
  // No revision: a Receiver has no source of its own (flux's get_receiver.go).
  Receiver: {
    entry: SERVED_KINDS.Receiver,
    hasSource: false,
    noRevision: true,
    revisionAndMessage: (_o, r) => ["", r.message],
  },
  // flux's get alerts and get alert-providers: Ready and its message, which flotilla's controllers keep on status
  // (flux prints "Alert is Ready" whatever the object's state; decision 0037).
  Alert: {
    entry: SERVED_KINDS.Alert,
    hasSource: false,
    noRevision: true,
    revisionAndMessage: (_o, r) => ["", r.message],
  },
  Provider: {
    entry: SERVED_KINDS.Provider,
    hasSource: false,
    noRevision: true,
    noSuspended: true,
    revisionAndMessage: (_o, r) => ["", r.message],
  },
  // flotilla's fleet: a cluster's Kubernetes version where Flux's kinds show a revision.
  Cluster: {
    entry: SERVED_KINDS.Cluster,
    hasSource: false,
    revisionHeader: "Version",
    revisionAndMessage: (o, r) => [
      String((o.status as { kubernetesVersion?: string } | undefined)?.kubernetesVersion ?? ""),
      r.message,
    ],
  },
  // The fleet kinds: how many of their clusters are ready where Flux's kinds show a revision.
  FleetKustomization: {
    entry: SERVED_KINDS.FleetKustomization,
    hasSource: false,
    revisionHeader: "Clusters",
    revisionAndMessage: readyClusters,
  },
  FleetHelmRelease: {
    entry: SERVED_KINDS.FleetHelmRelease,
    hasSource: false,
    revisionHeader: "Clusters",
    revisionAndMessage: readyClusters,
  },
} satisfies Record<string, GetKind>;

export function headersOf(k: GetKind, o: RowOptions): string[] {
  return [
    ...(o.allNamespaces ? ["Namespace"] : []),
    "Name",
    ...(k.hasSource && o.showSource ? ["Source"] : []),
    ...(k.noRevision ? [] : [k.revisionHeader ?? "Revision"]),
    ...(k.noSuspended ? [] : ["Suspended"]),
    "Ready",
    "Message",
  ];
}

export function rowOf(k: GetKind, obj: FluxObject, o: RowOptions): string[] {
  const ready =
    obj.spec?.type === "oci" && k.entry.kind === "HelmRepository" ? { status: "True", message: "" } : readyOf(obj);
  const [revision, message] = k.revisionAndMessage(obj, ready);
  const name = o.withKind ? `${k.entry.kind.toLowerCase()}/${obj.metadata.name}` : obj.metadata.name;
  return [
    ...(o.allNamespaces ? [obj.metadata.namespace ?? ""] : []),
    name,
    ...(k.hasSource && o.showSource ? [k.source!(obj)] : []),
    ...(k.noRevision ? [] : [revision]),
    ...(k.noSuspended ? [] : [obj.spec?.suspend === true ? "True" : "False"]),
    ready.status,
    message,
  ];
}
