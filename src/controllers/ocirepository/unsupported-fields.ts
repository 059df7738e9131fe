// The OCIRepository fields of Flux's v1 API that flotilla does not implement (kit/unsupported.ts):
// cloud-provider authentication and signature verification. Everything else is implemented (url,
// ref, layerSelector, secretRef, serviceAccountName's imagePullSecrets, certSecretRef,
// proxySecretRef, insecure, ignore, suspend, timeout, interval).
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
    field: "spec.verify (cosign, notation)",
    find: (s) => (s.verify ? `spec.verify (provider '${s.verify.provider ?? "cosign"}')` : undefined),
    instead:
      "remove spec.verify: artifact signatures are not verified by flotilla yet, so a verified " +
      "artifact cannot be promised (pin spec.ref.digest to trust one exact artifact)",
  },
];
