// ResourceSet (fluxcd.controlplane.io/v1), the Flux Operator's generator of object groups from a matrix
// of inputs and templated resources (decision 0040). The schema is the operator's v0.59 field for field
// so manifests written for the operator apply as written; what flotilla does not implement is refused by
// name by the controller (controllers/resourceset/unsupported.ts), never silently dropped.
import { type RolloutStatus, rolloutStatusSchema } from "../fleet/rollout.js";
import type { Condition } from "../meta/conditions.js";
import type { Inventory } from "../meta/inventory.js";
import type { KubeObject } from "../meta/object.js";
import {
  anyValue,
  arr,
  bool,
  condition,
  crdFor,
  inventory,
  labelsAndAnnotations,
  obj,
  open,
  str,
  withRules,
} from "../crd.js";
import { OPERATOR_GROUP, SERVED_KINDS } from "../kinds.js";

/** The operator's annotations (api/v1/common_types.go). */
export const OPERATOR_ANNOTATIONS = {
  reconcile: `${OPERATOR_GROUP}/reconcile`,
  reconcileEvery: `${OPERATOR_GROUP}/reconcileEvery`,
  reconcileTimeout: `${OPERATOR_GROUP}/reconcileTimeout`,
  force: `${OPERATOR_GROUP}/force`,
  prune: `${OPERATOR_GROUP}/prune`,
  copyFrom: `${OPERATOR_GROUP}/copyFrom`,
  checksumFrom: `${OPERATOR_GROUP}/checksumFrom`,
  convertKubeConfigFrom: `${OPERATOR_GROUP}/convertKubeConfigFrom`,
  recreateOnFailure: `${OPERATOR_GROUP}/recreateOnFailure`,
} as const;
export const OPERATOR_FINALIZER = `${OPERATOR_GROUP}/finalizer`;

export interface ResourceSetDependency {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  ready?: boolean;
  readyExpr?: string;
}

export interface InputProviderReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
}

export interface ResourceSetResources {
  resources?: Record<string, unknown>[];
  resourcesTemplate?: string;
}

export interface ResourceSetSpec extends ResourceSetResources {
  commonMetadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  inputStrategy?: { name?: "Flatten" | "Permute"; includeEmptyProviders?: boolean };
  inputs?: Record<string, unknown>[];
  inputsFrom?: InputProviderReference[];
  steps?: (ResourceSetResources & { name: string; timeout?: string })[];
  dependsOn?: ResourceSetDependency[];
  serviceAccountName?: string;
  wait?: boolean;
}

export interface HistoryEntry {
  digest: string;
  firstReconciled: string;
  lastReconciled: string;
  lastReconciledDuration: string;
  lastReconciledStatus: string;
  totalReconciliations: number;
  metadata?: Record<string, string>;
}

export type ResourceSet = KubeObject & {
  spec: ResourceSetSpec;
  status?: {
    observedGeneration?: number;
    conditions?: Condition[];
    inventory?: Inventory;
    lastAppliedRevision?: string;
    lastHandledReconcileAt?: string;
    history?: HistoryEntry[];
    /** flotilla's (decision 0048): what was applied to each fleet Cluster a target-clusters annotation selected. */
    clusterInventories?: ClusterInventory[];
    /** flotilla's (decision 0053): the staged rollout of fleet.flotilla.dev/rollout, as the fleet kinds report it. */
    rollout?: RolloutStatus;
  };
};

/** One fleet Cluster's inventory (by the Cluster's name, in the ResourceSet's namespace). */
export interface ClusterInventory {
  cluster: string;
  inventory: Inventory;
  /** The render this Cluster holds (decision 0053): the revision it was last given by its rollout stage. */
  revision?: string;
  /** Why applying `revision` there failed (its stage halts); absent when it applied. */
  failure?: string;
  /** When the Cluster left the selection: its objects are kept through the grace period (decision 0053). */
  leftAt?: string;
}

const resources = (): Record<string, ReturnType<typeof str>> => ({
  resources: arr({ type: "object", "x-kubernetes-preserve-unknown-fields": true }),
  resourcesTemplate: str(),
});

const spec = withRules(
  obj({
    commonMetadata: labelsAndAnnotations(),
    inputStrategy: withRules(obj({ name: str({ enum: ["Flatten", "Permute"] }), includeEmptyProviders: bool() }), [
      [
        "!has(self.includeEmptyProviders) || self.name == 'Permute'",
        "includeEmptyProviders only applies when name is Permute",
      ],
    ]),
    inputs: arr({ type: "object", additionalProperties: anyValue() }),
    inputsFrom: arr(
      withRules(
        obj({
          apiVersion: str({ enum: ["fluxcd.controlplane.io/v1"] }),
          kind: str({ enum: ["ResourceSetInputProvider"] }),
          name: str(),
          selector: open(),
        }),
        [
          [
            "has(self.name) || has(self.selector)",
            "at least one of name or selector must be set for input provider references",
          ],
          ["!has(self.name) || !has(self.selector)", "cannot set both name and selector for input provider references"],
        ],
      ),
    ),
    ...resources(),
    steps: withRules(
      {
        ...arr(
          withRules(
            obj(
              {
                name: str({ maxLength: 63, pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$" }),
                ...resources(),
                timeout: str({ pattern: "^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$" }),
              },
              ["name"],
            ),
            [
              [
                "has(self.resources) || has(self.resourcesTemplate)",
                "at least one of resources or resourcesTemplate must be set",
              ],
            ],
          ),
        ),
        minItems: 1,
        maxItems: 20,
      },
      [["self.all(s, self.exists_one(t, t.name == s.name))", "step names must be unique"]],
    ),
    dependsOn: arr(
      withRules(
        obj({ apiVersion: str(), kind: str(), name: str(), namespace: str(), ready: bool(), readyExpr: str() }, [
          "apiVersion",
          "kind",
          "name",
        ]),
        [["!has(self.readyExpr) || has(self.ready)", "ready must be set when readyExpr is set"]],
      ),
    ),
    serviceAccountName: str(),
    wait: bool(),
  }),
  [
    [
      "!has(self.steps) || (!has(self.resources) && !has(self.resourcesTemplate))",
      "steps is mutually exclusive with resources and resourcesTemplate",
    ],
    [
      "has(self.steps) || has(self.resources) || has(self.resourcesTemplate)",
      "at least one of steps, resources or resourcesTemplate must be set",
    ],
  ],
);

const status = obj({
  observedGeneration: { type: "integer", format: "int64" },
  conditions: arr(condition()),
  inventory: inventory(),
  lastAppliedRevision: str(),
  lastHandledReconcileAt: str(),
  externalChecksumRefs: arr(str()),
  history: arr(open()),
  // flotilla's, not the operator's (decision 0048): status only, so manifests written for the operator are unaffected.
  clusterInventories: arr(
    obj({ cluster: str(), inventory: inventory(), revision: str(), failure: str(), leftAt: str() }, [
      "cluster",
      "inventory",
    ]),
  ),
  // flotilla's (decision 0053), the fleet kinds' status.rollout.
  rollout: rolloutStatusSchema(),
});

export const resourceSetCrd = () => crdFor(SERVED_KINDS.ResourceSet, { v1: { spec, status } });
