// The HelmRepository fields of Flux's v1 API that flotilla does not implement (kit/unsupported.ts).
// An OCI HelmRepository (spec.type 'oci') is a static data container in Flux: nothing is reconciled, the
// HelmChart reads the registry (helmchart/from-oci-helm-repository.ts, which refuses a cloud
// `provider`). An oci:// URL on a default-type repository is refused here: Flux would fail to download
// an index from it. accessFrom is not implemented by Flux either.
import type { HelmRepository } from "../../api/source/helm.js";
import { isOciRepository } from "../kit/shared-refusals.js";
import type { UnsupportedField } from "../kit/unsupported.js";

export const HELM_REPOSITORY_UNSUPPORTED: UnsupportedField<HelmRepository["spec"]>[] = [
  {
    field: "an oci:// spec.url without spec.type oci",
    find: (s) =>
      s.type !== "oci" && isOciRepository({ spec: s } as HelmRepository)
        ? `an oci:// spec.url ('${s.url}') with spec.type '${s.type ?? "default"}'`
        : undefined,
    instead: "set spec.type: oci for a chart registry, or use an OCIRepository with a HelmRelease chartRef",
  },
];
