// The Kustomization fields of Flux's v1 API that flotilla does not implement (kit/unsupported.ts).
// Everything else in the CRD is implemented; healthCheckExprs, dependsOn[].readyExpr,
// ignoreMissingComponents and postBuild.substituteStrategy included. v1beta's `validation` is a no-op in Flux too.
import type { KustomizationSpec } from "../../api/kustomize/kustomization.js";
import { KUBECONFIG_CONFIGMAP_REF } from "../kit/shared-refusals.js";
import type { UnsupportedField } from "../kit/unsupported.js";

export const KUSTOMIZATION_UNSUPPORTED: UnsupportedField<KustomizationSpec>[] = [
  KUBECONFIG_CONFIGMAP_REF,
  {
    field: "spec.sourceRef.kind ExternalArtifact",
    find: (s) =>
      (s.sourceRef?.kind as string) === "ExternalArtifact" ? "spec.sourceRef.kind 'ExternalArtifact'" : undefined,
    instead: "use a GitRepository or an OCIRepository, or a Bucket served by Flux's source-controller",
  },
  {
    field: "spec.ignore",
    find: (s) => (s.ignore?.length ? "spec.ignore" : undefined),
    instead:
      "remove spec.ignore; to stop flotilla overwriting an object annotate it " +
      "kustomize.toolkit.fluxcd.io/ssa: IfNotPresent (or Ignore)",
  },
];
