// Receiver (notification.toolkit.fluxcd.io): a webhook endpoint that asks Flux objects to reconcile
// now. v1 is stored; v1beta2 and v1beta1 are served for manifests from older docs. The schemas are
// Flux's field for field — notification-controller v1.9 for v1, v1.8 (the last to serve it) for
// v1beta2, v1.6 for v1beta1 — so the API server prunes what Flux's CRD does not have.
import type { KubeObject } from "../meta/object.js";
import type { Condition } from "../meta/conditions.js";
import { arr, bool, condition, crdFor, duration, localRef, obj, str, strMap, withRules } from "../crd.js";
import { SERVED_KINDS } from "../kinds.js";

/** Every receiver type Flux's v1 API names (spec.type's enum). */
export const RECEIVER_TYPES = [
  "generic",
  "generic-hmac",
  "generic-oidc",
  "github",
  "gitlab",
  "bitbucket",
  "harbor",
  "dockerhub",
  "quay",
  "gcr",
  "nexus",
  "acr",
  "cdevents",
] as const;

/** The kinds a Receiver may ask to reconcile (resources[].kind's enum). */
export const RECEIVER_RESOURCE_KINDS = [
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

/** The path every Receiver's webhook lives under: `/hook/<hex sha256(token + name + namespace)>`. */
export const RECEIVER_WEBHOOK_PATH = "/hook/";

export interface ReceiverResource {
  apiVersion?: string;
  kind: string;
  /** A name, or `*` with matchLabels. */
  name: string;
  namespace?: string;
  matchLabels?: Record<string, string>;
  /** CEL, with the top-level resourceFilter: both must accept the resource. */
  filter?: string;
}

export interface ReceiverSpec {
  type: string;
  interval?: string;
  events?: string[];
  resources: ReceiverResource[];
  resourceFilter?: string;
  secretRef?: { name: string };
  oidcProviders?: unknown[];
  suspend?: boolean;
}

export type Receiver = KubeObject & {
  spec: ReceiverSpec;
  status?: {
    observedGeneration?: number;
    conditions?: Condition[];
    webhookPath?: string;
    lastHandledReconcileAt?: string;
  };
};

/** One entry of spec.resources; the beta versions had fewer kinds, shorter names and no filter. */
const resource = (kinds: string[], maxName: number, withFilter: boolean) =>
  obj(
    {
      apiVersion: str(),
      kind: str({ enum: kinds }),
      name: str({ maxLength: maxName, minLength: 1 }),
      namespace: str({ maxLength: maxName, minLength: 1 }),
      matchLabels: strMap(),
      ...(withFilter ? { filter: str() } : {}),
    },
    ["kind", "name"],
  );

const oidcProvider = obj(
  {
    issuerURL: str({ pattern: "^https?://" }),
    audience: str(),
    variables: arr(obj({ name: str(), expression: str() }, ["expression", "name"])),
    validations: { ...arr(obj({ expression: str(), message: str() }, ["expression", "message"])), minItems: 1 },
  },
  ["issuerURL", "validations"],
);

const v1Spec = withRules(
  obj(
    {
      type: str({ enum: [...RECEIVER_TYPES] }),
      interval: { ...duration(), default: "10m" },
      events: arr(str()),
      resources: arr(resource(RECEIVER_RESOURCE_KINDS, 253, true)),
      resourceFilter: str(),
      secretRef: localRef(),
      oidcProviders: {
        ...arr(oidcProvider),
        "x-kubernetes-list-map-keys": ["issuerURL"],
        "x-kubernetes-list-type": "map",
      },
      suspend: bool(),
    },
    ["resources", "type"],
  ),
  [
    [
      "self.type != 'generic-oidc' || (has(self.oidcProviders) && size(self.oidcProviders) > 0)",
      "generic-oidc receivers must define at least one oidcProvider",
    ],
    [
      "self.type == 'generic-oidc' || !has(self.oidcProviders) || size(self.oidcProviders) == 0",
      "oidcProviders can only be set when type is generic-oidc",
    ],
    ["self.type != 'generic-oidc' || !has(self.secretRef)", "secretRef cannot be set when type is generic-oidc"],
    ["self.type == 'generic-oidc' || has(self.secretRef)", "secretRef is required when type is not generic-oidc"],
  ],
);

/**
 * The beta specs: no generic-oidc or cdevents type, no resourceFilter or per-resource filter, secretRef
 * required; v1beta1 also had no interval, fewer kinds and 53-character names.
 */
const betaSpec = (kinds: string[], maxName: number, withInterval: boolean) =>
  obj(
    {
      type: str({ enum: RECEIVER_TYPES.filter((t) => t !== "generic-oidc" && t !== "cdevents") }),
      ...(withInterval ? { interval: duration() } : {}),
      events: arr(str()),
      resources: arr(resource(kinds, maxName, false)),
      secretRef: localRef(),
      suspend: bool(),
    },
    ["resources", "secretRef", "type"],
  );
const BETA1_KINDS = RECEIVER_RESOURCE_KINDS.filter((k) => k !== "ArtifactGenerator" && k !== "ExternalArtifact");

const statusFields = {
  observedGeneration: { type: "integer", format: "int64" },
  conditions: arr(condition()),
  webhookPath: str(),
  lastHandledReconcileAt: str(),
};

export const receiverCrd = () =>
  crdFor(SERVED_KINDS.Receiver, {
    v1: { spec: v1Spec, status: obj(statusFields) },
    // status.url: the webhook path's deprecated name in the beta APIs.
    v1beta2: { spec: betaSpec(RECEIVER_RESOURCE_KINDS, 253, true), status: obj({ ...statusFields, url: str() }) },
    v1beta1: {
      spec: betaSpec(BETA1_KINDS, 53, false),
      status: obj({ observedGeneration: statusFields.observedGeneration, conditions: arr(condition()), url: str() }),
    },
  });
