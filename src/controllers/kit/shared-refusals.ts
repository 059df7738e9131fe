// Refusals that more than one kind says in the same words (kit/unsupported.ts): a kubeconfig from a
// ConfigMap (Kustomization, HelmRelease), OCI Helm repositories (HelmRepository, HelmChart) and chart
// verification (HelmChart, HelmRelease). Kept here so no controller imports another kind's folder.
import type { HelmRepository } from "../../api/source/helm.js";
import type { UnsupportedField } from "./unsupported.js";

/**
 * Ignoring it once applied the remote cluster's objects to the management cluster. Shared by every kind
 * with a spec.kubeConfig (Kustomization, HelmRelease).
 */
export const KUBECONFIG_CONFIGMAP_REF: UnsupportedField<{ kubeConfig?: { configMapRef?: unknown } }> = {
  field: "spec.kubeConfig.configMapRef",
  find: (s) => (s.kubeConfig?.configMapRef ? "spec.kubeConfig.configMapRef" : undefined),
  instead:
    "put the remote cluster's kubeconfig in a Secret and name it in spec.kubeConfig.secretRef " +
    "(flotilla does not get cluster credentials from a cloud provider or workload identity)",
};

/** Charts are pulled from an OCI registry rather than through an index: flotilla has no OCI client. */
export const isOciRepository = (repo: HelmRepository) =>
  repo.spec.type === "oci" || /^oci:\/\//i.test(repo.spec.url ?? "");

/** Why a chart's signature is not verified (also the HelmRelease's chart template). */
export const VERIFY_INSTEAD = "flotilla does not verify chart signatures (cosign, notation) yet";
