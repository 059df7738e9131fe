// FluxInstance (fluxcd.controlplane.io/v1): the Flux Operator's declaration of a Flux distribution
// and of the cluster's root sync. flotilla acts as the distribution (decision 0043): the schema is the
// operator's v0.59 field for field so manifests apply as written; spec.sync creates the root source and
// Kustomization as the operator does, and what flotilla cannot do with the other fields is stated in
// status (controllers/fluxinstance/mapping.ts), never silently dropped.
import type { Condition } from "../meta/conditions.js";
import type { Inventory } from "../meta/inventory.js";
import type { Snapshot } from "../meta/history.js";
import type { KubeObject } from "../meta/object.js";
import { arr, bool, condition, crdFor, inventory, labelsAndAnnotations, obj, open, str, withRules } from "../crd.js";
import { SERVED_KINDS } from "../kinds.js";

/** The only name the operator accepts for a FluxInstance and a FluxReport (api/v1 DefaultInstanceName). */
export const INSTANCE_NAME = "flux";

export const FLUX_COMPONENTS = [
  "source-controller",
  "kustomize-controller",
  "helm-controller",
  "notification-controller",
  "image-reflector-controller",
  "image-automation-controller",
  "source-watcher",
] as const;

export interface FluxInstanceSync {
  name?: string;
  interval?: string;
  kind: "GitRepository" | "OCIRepository" | "Bucket";
  url: string;
  ref: string;
  path: string;
  pullSecret?: string;
  provider?: string;
}

export interface FluxInstanceCluster {
  domain?: string;
  multitenant?: boolean;
  multitenantWorkloadIdentity?: boolean;
  tenantDefaultServiceAccount?: string;
  tenantDefaultDecryptionServiceAccount?: string;
  tenantDefaultKubeConfigServiceAccount?: string;
  objectLevelWorkloadIdentity?: boolean;
  networkPolicy?: boolean;
  type?: string;
  size?: string;
}

export interface FluxInstanceSpec {
  distribution: {
    version: string;
    registry: string;
    variant?: string;
    imagePullSecret?: string;
    artifact?: string;
    artifactPullSecret?: string;
  };
  components?: string[];
  commonMetadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  cluster?: FluxInstanceCluster;
  sharding?: { key?: string; shards: string[]; storage?: string };
  storage?: { class: string; size: string };
  kustomize?: { patches?: Record<string, unknown>[] };
  wait?: boolean;
  migrateResources?: boolean;
  sync?: FluxInstanceSync;
}

export interface ComponentImage {
  name: string;
  repository: string;
  tag: string;
  digest?: string;
}

export type FluxInstance = KubeObject & {
  spec: FluxInstanceSpec;
  status?: {
    observedGeneration?: number;
    conditions?: Condition[];
    lastHandledReconcileAt?: string;
    lastAttemptedRevision?: string;
    lastAppliedRevision?: string;
    lastArtifactRevision?: string;
    components?: ComponentImage[];
    inventory?: Inventory;
    history?: Snapshot[];
  };
};

const duration = () => str({ pattern: "^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$" });

const cluster = withRules(
  obj({
    domain: str({ default: "cluster.local" }),
    multitenant: bool(),
    multitenantWorkloadIdentity: bool(),
    tenantDefaultServiceAccount: str(),
    tenantDefaultDecryptionServiceAccount: str(),
    tenantDefaultKubeConfigServiceAccount: str(),
    objectLevelWorkloadIdentity: bool(),
    networkPolicy: { type: "boolean", default: true },
    type: str({ enum: ["kubernetes", "openshift", "aws", "azure", "gcp"], default: "kubernetes" }),
    size: str({ enum: ["small", "medium", "large"] }),
  }),
  [
    [
      "(has(self.objectLevelWorkloadIdentity) && self.objectLevelWorkloadIdentity) || !has(self.multitenantWorkloadIdentity) || !self.multitenantWorkloadIdentity",
      ".objectLevelWorkloadIdentity must be set to true when .multitenantWorkloadIdentity is set to true",
    ],
  ],
);

const sync = withRules(
  obj(
    {
      name: withRules(str({ maxLength: 63 }), [["self == oldSelf", "Sync name is immutable"]]),
      interval: { ...duration(), default: "1m" },
      kind: str({ enum: ["OCIRepository", "GitRepository", "Bucket"] }),
      url: str(),
      ref: str(),
      path: str(),
      pullSecret: str(),
      provider: str({ enum: ["generic", "aws", "azure", "gcp", "github"] }),
    },
    ["kind", "path", "ref", "url"],
  ),
  [
    [
      "!has(self.provider) || self.provider != 'gcp' || self.kind == 'OCIRepository' || self.kind == 'Bucket'",
      "sync.provider 'gcp' is only supported for OCIRepository and Bucket",
    ],
    [
      "!has(self.provider) || self.provider != 'github' || self.kind == 'GitRepository'",
      "sync.provider 'github' is only supported for GitRepository",
    ],
  ],
);

const spec = withRules(
  obj(
    {
      distribution: obj(
        {
          version: str(),
          registry: str(),
          variant: str({
            enum: ["upstream-alpine", "enterprise-alpine", "enterprise-distroless", "enterprise-distroless-fips"],
          }),
          imagePullSecret: str(),
          artifact: str({ pattern: "^oci://.*$" }),
          artifactPullSecret: str(),
        },
        ["registry", "version"],
      ),
      components: arr(str({ enum: [...FLUX_COMPONENTS] })),
      commonMetadata: labelsAndAnnotations(),
      cluster,
      sharding: obj(
        {
          key: str({ default: "sharding.fluxcd.io/key" }),
          shards: { ...arr(str()), minItems: 1 },
          storage: str({ enum: ["ephemeral", "persistent"] }),
        },
        ["shards"],
      ),
      storage: obj({ class: str(), size: str() }, ["class", "size"]),
      kustomize: obj({ patches: arr(open()) }),
      wait: { type: "boolean", default: true },
      migrateResources: { type: "boolean", default: true },
      sync,
    },
    ["distribution"],
  ),
  [
    [
      "!has(self.sharding) || !has(self.sharding.storage) || self.sharding.storage != 'persistent' || has(self.storage)",
      ".spec.storage must be set when .spec.sharding.storage is 'persistent'",
    ],
  ],
);

const status = obj({
  observedGeneration: { type: "integer", format: "int64" },
  conditions: arr(condition()),
  lastHandledReconcileAt: str(),
  lastHandledForceAt: str(),
  lastAttemptedRevision: str(),
  lastAppliedRevision: str(),
  lastArtifactRevision: str(),
  components: arr(obj({ name: str(), repository: str(), tag: str(), digest: str() }, ["name", "repository", "tag"])),
  inventory: inventory(),
  history: arr(open()),
});

export const fluxInstanceCrd = () =>
  crdFor(SERVED_KINDS.FluxInstance, {
    v1: {
      spec,
      status,
      rules: [[`self.metadata.name == '${INSTANCE_NAME}'`, "the only accepted name for a FluxInstance is 'flux'"]],
    },
  });
