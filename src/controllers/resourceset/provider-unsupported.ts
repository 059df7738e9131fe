// What flotilla's ResourceSetInputProvider controller does not implement, refused by name (Stalled,
// UnsupportedField): the Git forge types (no GitHub/GitLab/Gitea/Azure DevOps/CodeCommit API runs here to
// hold them against) and the cloud registries' ArtifactTag types, and with them skip and filter.labels
// (both about pull-request labels); schedule (cron windows); certSecretRef and serviceAccountName; secretRef
// on OCIArtifactTag. Plus the operator's own spec checks (InvalidSpec, Stalled).
import type { ResourceSetInputProvider } from "../../api/operator/resourceset-input-provider.js";
import { ReconcileFailure } from "../kit/failure.js";
import type { UnsupportedField } from "../kit/unsupported.js";

/** The provider types flotilla computes. */
export const COMPUTED_PROVIDER_TYPES = ["Static", "ExternalService", "OCIArtifactTag"];

type Spec = ResourceSetInputProvider["spec"];
const used = (field: string) => (s: Spec) => (s[field] !== undefined ? `spec.${field}` : undefined);

export const PROVIDER_UNSUPPORTED: UnsupportedField<Spec>[] = [
  {
    field: "spec.type",
    find: (s) => (COMPUTED_PROVIDER_TYPES.includes(s.type) ? undefined : `spec.type '${s.type}'`),
    instead: `flotilla computes the types ${COMPUTED_PROVIDER_TYPES.join(", ")} (decision 0040); serve the list from an ExternalService endpoint or list the inputs in spec.defaultValues or the ResourceSet's spec.inputs`,
  },
  {
    field: "spec.schedule",
    find: (s) => (s.schedule && (s.schedule as unknown[]).length ? "spec.schedule" : undefined),
    instead: "remove the schedule: the provider is reconciled every reconcileEvery (default 10m)",
  },
  {
    field: "spec.skip",
    find: used("skip"),
    instead: "skip applies to Git forge pull requests, which flotilla does not read",
  },
  {
    field: "spec.filter.labels",
    find: (s) => ((s.filter as { labels?: string[] } | undefined)?.labels?.length ? "spec.filter.labels" : undefined),
    instead: "labels filter Git forge pull requests, which flotilla does not read",
  },
  {
    field: "spec.certSecretRef",
    find: used("certSecretRef"),
    instead: "serve the endpoint over plain HTTP with insecure: true, or with a CA the controller trusts",
  },
  { field: "spec.serviceAccountName", find: used("serviceAccountName"), instead: "use spec.secretRef" },
  {
    field: "spec.secretRef",
    find: (s) =>
      s.type === "OCIArtifactTag" && s.secretRef !== undefined ? "spec.secretRef on OCIArtifactTag" : undefined,
    instead: "use a registry that allows anonymous tag listing",
  },
];

const invalidSpec = (message: string) =>
  new ReconcileFailure("InvalidSpec", `Reconciliation failed terminally due to configuration error: ${message}`, {
    stalled: true,
  });

/** The operator's checks that mirror its CEL rules. */
export function validateProvider(p: ResourceSetInputProvider): void {
  const { type, url = "", insecure } = p.spec;
  if (type === "ExternalService") {
    if (!url.startsWith("http://") && !url.startsWith("https://"))
      throw invalidSpec("spec.url must start with 'http://' or 'https://' when spec.type is 'ExternalService'");
    if (url.startsWith("http://") && !insecure)
      throw invalidSpec("spec.url must use 'https://' unless spec.insecure is true");
  } else if (insecure && type !== "OCIArtifactTag")
    throw invalidSpec("spec.insecure can only be set when spec.type is 'ExternalService' or 'OCIArtifactTag'");
  if (type.endsWith("ArtifactTag") && !url.replace(/^oci:\/\//, "").includes("/"))
    throw invalidSpec(
      "spec.url must include the repository path after the registry host when spec.type is an OCI provider",
    );
}
