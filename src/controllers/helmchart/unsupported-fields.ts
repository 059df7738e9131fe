// The HelmChart fields of Flux's v1 API that flotilla does not implement (kit/unsupported.ts).
// Flux verifies only charts pulled from OCI registries, which flotilla does not support; refusing
// verify beats building a chart the user asked to have verified without verifying it. A Bucket
// source is refused as UnsupportedSourceKind by the reconciler.
import type { HelmChart } from "../../api/source/helm.js";
import { VERIFY_INSTEAD } from "../kit/shared-refusals.js";
import type { UnsupportedField } from "../kit/unsupported.js";

export const HELM_CHART_UNSUPPORTED: UnsupportedField<HelmChart["spec"]>[] = [
  {
    field: "spec.verify (cosign, notation)",
    find: (s) => (s.verify ? `spec.verify (provider '${s.verify.provider ?? "cosign"}')` : undefined),
    instead: `remove spec.verify; ${VERIFY_INSTEAD}`,
  },
];
