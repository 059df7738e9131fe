// ResourceSetInputProvider (fluxcd.controlplane.io/v1): where a ResourceSet's inputsFrom reads input
// sets. The schema is the operator's (v0.59) so manifests apply as written; flotilla computes the
// Static type's input set (defaultValues, id from the object's UID) and refuses the other types by
// name (decision 0040).
import type { Condition } from "../meta/conditions.js";
import type { KubeObject } from "../meta/object.js";
import { anyValue, arr, condition, crdFor, obj, open, str } from "../crd.js";
import { SERVED_KINDS } from "../kinds.js";

export const INPUT_PROVIDER_TYPES = [
  "Static",
  "GitHubBranch",
  "GitHubTag",
  "GitHubPullRequest",
  "GitLabBranch",
  "GitLabTag",
  "GitLabMergeRequest",
  "GitLabEnvironment",
  "GiteaBranch",
  "GiteaTag",
  "GiteaPullRequest",
  "AzureDevOpsBranch",
  "AzureDevOpsTag",
  "AzureDevOpsPullRequest",
  "AWSCodeCommitBranch",
  "AWSCodeCommitTag",
  "AWSCodeCommitPullRequest",
  "OCIArtifactTag",
  "ACRArtifactTag",
  "ECRArtifactTag",
  "GARArtifactTag",
  "ExternalService",
] as const;

export type ResourceSetInputProvider = KubeObject & {
  spec: {
    type: string;
    url?: string;
    defaultValues?: Record<string, unknown>;
    [field: string]: unknown;
  };
  status?: { conditions?: Condition[]; exportedInputs?: Record<string, unknown>[]; lastExportedRevision?: string };
};

const spec = obj(
  {
    type: str({ enum: [...INPUT_PROVIDER_TYPES] }),
    url: str(),
    serviceAccountName: str(),
    secretRef: open(),
    certSecretRef: open(),
    insecure: { type: "boolean" },
    defaultValues: { type: "object", additionalProperties: anyValue() },
    filter: open(),
    skip: open(),
    schedule: arr(open()),
  },
  ["type"],
);

const status = obj({
  observedGeneration: { type: "integer", format: "int64" },
  conditions: arr(condition()),
  exportedInputs: arr({ type: "object", additionalProperties: anyValue() }),
  lastExportedRevision: str(),
  lastHandledReconcileAt: str(),
});

export const resourceSetInputProviderCrd = () =>
  crdFor(SERVED_KINDS.ResourceSetInputProvider, { v1: { spec, status } });
