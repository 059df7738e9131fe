// What flotilla's ResourceSetInputProvider controller does not implement, refused by name (Stalled,
// UnsupportedField): GitLabEnvironment, Azure DevOps and CodeCommit (cloud identities) and the cloud
// registries' ArtifactTag types, ExternalArtifact; serviceAccountName; secretRef and certSecretRef on
// OCIArtifactTag. Plus the operator's own spec checks (InvalidSpec, Stalled).
import type { ResourceSetInputProvider } from "../../api/operator/resourceset-input-provider.js";
import { ReconcileFailure } from "../kit/failure.js";
import type { UnsupportedField } from "../kit/unsupported.js";
import { FORGE_TYPES } from "./forge-inputs.js";

/** The provider types flotilla computes. */
export const COMPUTED_PROVIDER_TYPES = ["Static", "ExternalService", "OCIArtifactTag", ...FORGE_TYPES];

type Spec = ResourceSetInputProvider["spec"];
const used = (field: string) => (s: Spec) => (s[field] !== undefined ? `spec.${field}` : undefined);

export const PROVIDER_UNSUPPORTED: UnsupportedField<Spec>[] = [
  {
    field: "spec.type",
    find: (s) => (COMPUTED_PROVIDER_TYPES.includes(s.type) ? undefined : `spec.type '${s.type}'`),
    instead: `flotilla computes the types ${COMPUTED_PROVIDER_TYPES.join(", ")} (decisions 0040, 0049); serve the list from an ExternalService endpoint or list the inputs in spec.defaultValues or the ResourceSet's spec.inputs`,
  },
  {
    field: "spec.certSecretRef",
    find: (s) =>
      s.certSecretRef !== undefined && s.type === "OCIArtifactTag" ? "spec.certSecretRef on OCIArtifactTag" : undefined,
    instead: "use a registry whose certificate the controller trusts, or plain HTTP with insecure: true",
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
