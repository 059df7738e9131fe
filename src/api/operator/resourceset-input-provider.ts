// ResourceSetInputProvider (fluxcd.controlplane.io/v1): where a ResourceSet's inputsFrom reads input
// sets. The schema is the operator's (v0.59) so manifests apply as written; flotilla computes Static,
// ExternalService, OCIArtifactTag and the GitHub/GitLab/Gitea types and refuses the others by name
// (decisions 0040, 0049).
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
  status?: {
    conditions?: Condition[];
    exportedInputs?: Record<string, unknown>[];
    lastExportedRevision?: string;
    lastHandledForceAt?: string;
  };
};

// The operator's Schedule: timeZone defaults to UTC and window to 0s, so stored objects read as its do.
const scheduleFields = {
  cron: str(),
  timeZone: str({ default: "UTC" }),
  window: str({ default: "0s", pattern: "^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$" }),
};
const schedule = obj(scheduleFields, ["cron"]);

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
    schedule: arr(schedule),
  },
  ["type"],
);

const status = obj({
  observedGeneration: { type: "integer", format: "int64" },
  conditions: arr(condition()),
  exportedInputs: arr({ type: "object", additionalProperties: anyValue() }),
  lastExportedRevision: str(),
  lastHandledReconcileAt: str(),
  lastHandledForceAt: str(),
  nextSchedule: obj({ ...scheduleFields, when: str({ format: "date-time" }) }, ["cron", "when"]),
});

export const resourceSetInputProviderCrd = () =>
  crdFor(SERVED_KINDS.ResourceSetInputProvider, { v1: { spec, status } });
