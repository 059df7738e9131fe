// The table of kinds: every kind flotilla serves (its CRDs are built from it, the CLI verbs and the
// dashboard take names, short names and columns from it), and the Kubernetes kinds it reads and
// writes. API paths come from here too (paths.ts), never from strings written by hand. A new kind
// (HelmRelease, Receiver, the fleet kinds) is one entry.

export type Scope = "Namespaced" | "Cluster";

export interface KindVersion {
  name: string;
  served: boolean;
  /** Exactly one version is stored; it is also the one flotilla reads and writes. */
  storage: boolean;
  deprecated?: boolean;
}

/** What it takes to find a kind in the API. */
export interface KindEntry {
  group: string;
  kind: string;
  plural: string;
  scope: Scope;
  versions: KindVersion[];
}

export interface PrinterColumn {
  name: string;
  type: "string" | "date" | "integer" | "number" | "boolean";
  jsonPath: string;
}

/** A kind flotilla serves through its own CRD. */
export interface ServedKind extends KindEntry {
  singular: string;
  shortNames: string[];
  categories: string[];
  /** Printer columns, the same for every version. */
  columns: PrinterColumn[];
}

export const SOURCE_GROUP = "source.toolkit.fluxcd.io";
export const KUSTOMIZE_GROUP = "kustomize.toolkit.fluxcd.io";
export const HELM_GROUP = "helm.toolkit.fluxcd.io";
export const NOTIFICATION_GROUP = "notification.toolkit.fluxcd.io";
export const FLEET_GROUP = "fleet.flotilla.dev";
/** The Flux Operator's group (ResourceSet, ResourceSetInputProvider: decision 0040). */
export const OPERATOR_GROUP = "fluxcd.controlplane.io";

const AGE_COLUMN: PrinterColumn = { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" };
const READY_COLUMNS: PrinterColumn[] = [
  { name: "Ready", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: "Status", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].message' },
];
const URL_COLUMN: PrinterColumn = { name: "URL", type: "string", jsonPath: ".spec.url" };

/** v1 stored; the older versions still served (deprecated) so manifests from older docs apply as written. */
const fluxVersions = (...older: string[]): KindVersion[] => [
  { name: "v1", served: true, storage: true },
  ...older.map((name) => ({ name, served: true, storage: false, deprecated: true })),
];

/** Alert and Provider: Flux never took them to v1; v1beta3 stored, v1beta2 served until Flux dropped it. */
const notificationBetaVersions: KindVersion[] = [
  { name: "v1beta3", served: true, storage: true },
  { name: "v1beta2", served: true, storage: false, deprecated: true },
];

/** A kind of flotilla's fleet layer: fleet.flotilla.dev, v1alpha1, namespaced. */
const fleetKind = (kind: string, plural: string, shortName: string, columns: PrinterColumn[]): ServedKind => ({
  group: FLEET_GROUP,
  kind,
  plural,
  singular: kind.toLowerCase(),
  shortNames: [shortName],
  categories: ["flotilla"],
  scope: "Namespaced",
  versions: [{ name: "v1alpha1", served: true, storage: true }],
  columns: [...columns, AGE_COLUMN, ...READY_COLUMNS],
});
const FAN_OUT_COLUMNS: PrinterColumn[] = [
  { name: "Clusters", type: "integer", jsonPath: ".status.counts.total" },
  { name: "Ready Clusters", type: "integer", jsonPath: ".status.counts.ready" },
];

export const SERVED_KINDS = {
  GitRepository: {
    group: SOURCE_GROUP,
    kind: "GitRepository",
    plural: "gitrepositories",
    singular: "gitrepository",
    shortNames: ["gitrepo"],
    categories: ["all", "fluxcd", "fluxcd-sources"],
    scope: "Namespaced",
    versions: fluxVersions("v1beta2", "v1beta1"),
    columns: [URL_COLUMN, AGE_COLUMN, ...READY_COLUMNS],
  },
  HelmRepository: {
    group: SOURCE_GROUP,
    kind: "HelmRepository",
    plural: "helmrepositories",
    singular: "helmrepository",
    shortNames: ["helmrepo"],
    categories: ["all", "fluxcd", "fluxcd-sources"],
    scope: "Namespaced",
    versions: fluxVersions("v1beta2", "v1beta1"),
    columns: [URL_COLUMN, AGE_COLUMN, ...READY_COLUMNS],
  },
  HelmChart: {
    group: SOURCE_GROUP,
    kind: "HelmChart",
    plural: "helmcharts",
    singular: "helmchart",
    shortNames: ["hc"],
    categories: ["all", "fluxcd", "fluxcd-sources"],
    scope: "Namespaced",
    versions: fluxVersions("v1beta2", "v1beta1"),
    columns: [
      { name: "Chart", type: "string", jsonPath: ".spec.chart" },
      { name: "Version", type: "string", jsonPath: ".spec.version" },
      { name: "Source Kind", type: "string", jsonPath: ".spec.sourceRef.kind" },
      { name: "Source Name", type: "string", jsonPath: ".spec.sourceRef.name" },
      AGE_COLUMN,
      ...READY_COLUMNS,
    ],
  },
  // source-controller served v1beta2 last in v1.6 (v1 since v1.6.0); v1beta1 never existed for this kind.
  OCIRepository: {
    group: SOURCE_GROUP,
    kind: "OCIRepository",
    plural: "ocirepositories",
    singular: "ocirepository",
    shortNames: ["ocirepo"],
    categories: ["all", "fluxcd", "fluxcd-sources"],
    scope: "Namespaced",
    versions: fluxVersions("v1beta2"),
    // Flux's order for this kind: Age last.
    columns: [URL_COLUMN, ...READY_COLUMNS, AGE_COLUMN],
  },
  Kustomization: {
    group: KUSTOMIZE_GROUP,
    kind: "Kustomization",
    plural: "kustomizations",
    singular: "kustomization",
    shortNames: ["ks"],
    categories: ["all", "fluxcd"],
    scope: "Namespaced",
    versions: fluxVersions("v1beta2", "v1beta1"),
    columns: [AGE_COLUMN, ...READY_COLUMNS],
  },
  HelmRelease: {
    group: HELM_GROUP,
    kind: "HelmRelease",
    plural: "helmreleases",
    singular: "helmrelease",
    shortNames: ["hr"],
    categories: ["all", "fluxcd"],
    scope: "Namespaced",
    // v2 stored; v2beta2 and v2beta1 served so the Kamaji guide's v2beta1 manifest applies as written.
    versions: [
      { name: "v2", served: true, storage: true },
      { name: "v2beta2", served: true, storage: false, deprecated: true },
      { name: "v2beta1", served: true, storage: false, deprecated: true },
    ],
    columns: [AGE_COLUMN, ...READY_COLUMNS],
  },
  // notification-controller's webhook Receiver; no short name in Flux's CRD. v1beta2 and v1beta1 served as
  // Flux served them last (notification-controller v1.8 and v1.6).
  Receiver: {
    group: NOTIFICATION_GROUP,
    kind: "Receiver",
    plural: "receivers",
    singular: "receiver",
    shortNames: [],
    categories: ["all", "fluxcd", "fluxcd-notifications"],
    scope: "Namespaced",
    versions: fluxVersions("v1beta2", "v1beta1"),
    columns: [AGE_COLUMN, ...READY_COLUMNS],
  },
  // notification-controller's Alert and Provider: v1beta3 stored, v1beta2 served (deprecated) as Flux served
  // it last (notification-controller v1.8). No short names in Flux's CRDs. Ready/Status columns although
  // Flux's v1beta3 has only Age: flotilla's v1beta3 has the status Flux's v1beta2 had (decision 0037).
  Alert: {
    group: NOTIFICATION_GROUP,
    kind: "Alert",
    plural: "alerts",
    singular: "alert",
    shortNames: [],
    categories: ["all", "fluxcd", "fluxcd-notifications"],
    scope: "Namespaced",
    versions: notificationBetaVersions,
    columns: [AGE_COLUMN, ...READY_COLUMNS],
  },
  Provider: {
    group: NOTIFICATION_GROUP,
    kind: "Provider",
    plural: "providers",
    singular: "provider",
    shortNames: [],
    categories: ["all", "fluxcd", "fluxcd-notifications"],
    scope: "Namespaced",
    versions: notificationBetaVersions,
    columns: [AGE_COLUMN, ...READY_COLUMNS],
  },
  // The Flux Operator's kinds (v1 only), with its short names, categories and columns.
  ResourceSet: {
    group: OPERATOR_GROUP,
    kind: "ResourceSet",
    plural: "resourcesets",
    singular: "resourceset",
    shortNames: ["rset"],
    categories: ["all", "fluxcd", "fluxcd-appliers"],
    scope: "Namespaced",
    versions: [{ name: "v1", served: true, storage: true }],
    columns: [AGE_COLUMN, ...READY_COLUMNS],
  },
  ResourceSetInputProvider: {
    group: OPERATOR_GROUP,
    kind: "ResourceSetInputProvider",
    plural: "resourcesetinputproviders",
    singular: "resourcesetinputprovider",
    shortNames: ["rsip"],
    categories: ["all", "fluxcd"],
    scope: "Namespaced",
    versions: [{ name: "v1", served: true, storage: true }],
    columns: [AGE_COLUMN, ...READY_COLUMNS],
  },
  // The Flux Operator's distribution kinds: one of each per cluster, named flux (decision 0043).
  FluxInstance: {
    group: OPERATOR_GROUP,
    kind: "FluxInstance",
    plural: "fluxinstances",
    singular: "fluxinstance",
    shortNames: [],
    categories: ["fluxcd", "fluxcd-appliers"],
    scope: "Namespaced",
    versions: [{ name: "v1", served: true, storage: true }],
    columns: [
      AGE_COLUMN,
      ...READY_COLUMNS,
      { name: "Revision", type: "string", jsonPath: ".status.lastAttemptedRevision" },
    ],
  },
  FluxReport: {
    group: OPERATOR_GROUP,
    kind: "FluxReport",
    plural: "fluxreports",
    singular: "fluxreport",
    shortNames: [],
    categories: ["fluxcd"],
    scope: "Namespaced",
    versions: [{ name: "v1", served: true, storage: true }],
    columns: [
      AGE_COLUMN,
      ...READY_COLUMNS,
      { name: "LastUpdated", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].lastTransitionTime' },
    ],
  },
  Cluster: fleetKind("Cluster", "clusters", "fcl", [
    { name: "Version", type: "string", jsonPath: ".status.kubernetesVersion" },
    { name: "Nodes", type: "integer", jsonPath: ".status.nodeCount" },
  ]),
  FleetKustomization: fleetKind("FleetKustomization", "fleetkustomizations", "fks", FAN_OUT_COLUMNS),
  FleetHelmRelease: fleetKind("FleetHelmRelease", "fleethelmreleases", "fhr", FAN_OUT_COLUMNS),
} satisfies Record<string, ServedKind>;

const builtin = (group: string, version: string, kind: string, plural: string, scope: Scope = "Namespaced") => ({
  group,
  kind,
  plural,
  scope,
  versions: [{ name: version, served: true, storage: true }],
});

/**
 * Kinds flotilla reads or writes without serving them: Kubernetes', Kamaji's (whose planes host the
 * tenants), and the Flux sources another source-controller may serve (Bucket).
 */
export const USED_KINDS = {
  Secret: builtin("", "v1", "Secret", "secrets"),
  ConfigMap: builtin("", "v1", "ConfigMap", "configmaps"),
  Event: builtin("", "v1", "Event", "events"),
  Namespace: builtin("", "v1", "Namespace", "namespaces", "Cluster"),
  Node: builtin("", "v1", "Node", "nodes", "Cluster"),
  ServiceAccount: builtin("", "v1", "ServiceAccount", "serviceaccounts"),
  Deployment: builtin("apps", "v1", "Deployment", "deployments"),
  Lease: builtin("coordination.k8s.io", "v1", "Lease", "leases"),
  ClusterRoleBinding: builtin(
    "rbac.authorization.k8s.io",
    "v1",
    "ClusterRoleBinding",
    "clusterrolebindings",
    "Cluster",
  ),
  CustomResourceDefinition: builtin(
    "apiextensions.k8s.io",
    "v1",
    "CustomResourceDefinition",
    "customresourcedefinitions",
    "Cluster",
  ),
  TenantControlPlane: builtin("kamaji.clastix.io", "v1alpha1", "TenantControlPlane", "tenantcontrolplanes"),
  Bucket: builtin(SOURCE_GROUP, "v1", "Bucket", "buckets"),
} satisfies Record<string, KindEntry>;

/** The version flotilla reads and writes (the stored one). */
export function storageVersion(kind: KindEntry): string {
  const v = kind.versions.find((x) => x.storage);
  if (!v) throw new Error(`${kind.kind} has no storage version`);
  return v.name;
}

/** The apiVersion an object of this kind is written with (its stored version). */
export const apiVersionOf = (kind: KindEntry) => (kind.group ? `${kind.group}/` : "") + storageVersion(kind);

/** The group, stored version and kind of an entry: what a watch or an informer asks for. */
export const gvkOf = (kind: KindEntry) => ({ group: kind.group, version: storageVersion(kind), kind: kind.kind });
