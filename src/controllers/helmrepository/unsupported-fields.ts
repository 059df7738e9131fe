// The HelmRepository fields of Flux's v1 API that flotilla does not implement (kit/unsupported.ts):
// OCI repositories. insecure and provider only apply to OCI in Flux; accessFrom is not implemented
// by Flux either. Everything else (url, secretRef, certSecretRef, passCredentials, timeout) is.
import type { HelmRepository } from "../../api/source/helm.js";
import { isOciRepository, OCI_INSTEAD } from "../kit/shared-refusals.js";
import type { UnsupportedField } from "../kit/unsupported.js";

export const HELM_REPOSITORY_UNSUPPORTED: UnsupportedField<HelmRepository["spec"]>[] = [
  {
    field: "spec.type oci (and oci:// URLs)",
    find: (s) =>
      s.type === "oci"
        ? "OCI HelmRepository (spec.type 'oci')"
        : isOciRepository({ spec: s } as HelmRepository)
          ? "OCI HelmRepository (an oci:// spec.url)"
          : undefined,
    instead: OCI_INSTEAD,
  },
];
