// The OCIRepository fields of Flux's v1 API that flotilla does not implement (kit/unsupported.ts):
// cloud-provider authentication. Everything else is implemented (url, ref, layerSelector, secretRef,
// serviceAccountName's imagePullSecrets, certSecretRef, proxySecretRef, insecure, ignore, suspend,
// timeout, interval, verify with cosign public keys). Keyless cosign needs the public Sigstore
// services (Fulcio, Rekor) and notation a trust policy and store: both refused by name.
import type { OCIRepositorySpec } from "../../api/source/oci-repository.js";
import type { UnsupportedField } from "../kit/unsupported.js";

export const OCI_REPOSITORY_UNSUPPORTED: UnsupportedField<OCIRepositorySpec>[] = [
  {
    field: "spec.provider (aws, azure, gcp)",
    find: (s) => (s.provider && s.provider !== "generic" ? `spec.provider '${s.provider}'` : undefined),
    instead:
      "use spec.provider: generic with spec.secretRef (a kubernetes.io/dockerconfigjson Secret) or " +
      "spec.serviceAccountName's imagePullSecrets; cloud workload identity is not implemented",
  },
  {
    field: "spec.verify.provider notation",
    find: (s) => (s.verify?.provider === "notation" ? "spec.verify.provider 'notation'" : undefined),
    instead: "sign with cosign and verify with its public key (spec.verify.provider: cosign with secretRef)",
  },
  {
    field: "spec.verify without secretRef (keyless cosign)",
    find: (s) =>
      s.verify && s.verify.provider !== "notation" && !s.verify.secretRef
        ? "spec.verify without secretRef (keyless cosign)"
        : undefined,
    instead:
      "it needs the public Sigstore services; sign with a cosign key pair and name the Secret holding " +
      "its cosign.pub in spec.verify.secretRef",
  },
];
