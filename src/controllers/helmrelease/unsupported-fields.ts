// The HelmRelease fields of Flux's v2 API that flotilla does not implement (kit/unsupported.ts).
// The table takes the whole object, not only its spec: whether spec.storageNamespace is refused
// depends on the target namespace, which defaults to the object's own.
// Implemented, so not here: chartRef kind HelmChart and OCIRepository (oci-chart.ts), test.filters (helm test --filter),
// dependsOn[].readyExpr and healthCheckExprs (the Kustomization's CEL; the latter with the engine, health-exprs.ts), install/upgrade/rollback.serverSideApply (helm v4's
// --server-side true|false|auto), driftDetection, commonMetadata. Accepted as harmless:
// persistentClient (every helm process is a new client anyway) and rollback.recreate (a no-op in
// Flux too since 2.8).
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import { KUBECONFIG_CONFIGMAP_REF, VERIFY_INSTEAD } from "../kit/shared-refusals.js";
import type { UnsupportedField } from "../kit/unsupported.js";
import { helmEngineOn } from "./actions/run-action.js";

const CHART_SOURCES = "a HelmRepository (HTTP/S or OCI) or a GitRepository";

/** The namespace helm installs to, and so (helm's CLI storage namespace is its -n) where the release is stored. */
export const targetNamespaceOf = (hr: HelmRelease): string | undefined =>
  hr.spec.targetNamespace ?? hr.metadata.namespace;

const chartRefKind = (kind: string): UnsupportedField<HelmRelease> => ({
  field: `spec.chartRef.kind ${kind}`,
  find: (hr) => ((hr.spec.chartRef?.kind as string) === kind ? `spec.chartRef.kind '${kind}'` : undefined),
  instead: `use spec.chart with ${CHART_SOURCES} as its sourceRef, or a spec.chartRef to a HelmChart or an OCIRepository`,
});

export const HELM_RELEASE_UNSUPPORTED: UnsupportedField<HelmRelease>[] = [
  {
    ...KUBECONFIG_CONFIGMAP_REF,
    find: (hr) => KUBECONFIG_CONFIGMAP_REF.find(hr.spec),
  },
  chartRefKind("ExternalArtifact"),
  {
    field: "spec.chart.spec.sourceRef.kind Bucket",
    find: (hr) =>
      hr.spec.chart?.spec.sourceRef.kind === "Bucket" ? "spec.chart.spec.sourceRef.kind 'Bucket'" : undefined,
    instead: `serve the chart from ${CHART_SOURCES}`,
  },
  {
    field: "spec.chart.spec.verify",
    find: (hr) => {
      const verify = hr.spec.chart?.spec.verify;
      return verify ? `spec.chart.spec.verify (provider '${verify.provider ?? "cosign"}')` : undefined;
    },
    instead: `remove spec.chart.spec.verify; ${VERIFY_INSTEAD}`,
  },
  {
    field: "spec.storageNamespace other than the target namespace",
    find: (hr) => {
      const storage = hr.spec.storageNamespace;
      const target = targetNamespaceOf(hr);
      return storage && storage !== target
        ? `spec.storageNamespace '${storage}' (the release's target namespace is '${target}')`
        : undefined;
    },
    instead:
      "remove spec.storageNamespace; flotilla stores the Helm release in its target namespace, " +
      "because helm's CLI keeps a release in the namespace it installs to",
  },
  {
    field: "spec.postRenderStrategy nohooks, separate",
    find: (hr) => {
      const strategy = hr.spec.postRenderStrategy;
      return strategy && strategy !== "combined" ? `spec.postRenderStrategy '${strategy}'` : undefined;
    },
    instead:
      "remove spec.postRenderStrategy (or set it to combined); helm's CLI post-renders hooks and manifests together",
  },
  {
    field: "spec.healthCheckExprs with --helm-engine=false",
    find: (hr) =>
      hr.spec.healthCheckExprs?.length && hr.spec.waitStrategy?.name !== "legacy" && !helmEngineOn()
        ? "spec.healthCheckExprs (the controller runs with --helm-engine=false)"
        : undefined,
    instead:
      "run the HelmRelease controller with the resident helm engine (the default; drop --helm-engine=false), " +
      "which hands the poller's wait to flotilla, or remove spec.healthCheckExprs",
  },
  {
    field: "spec.upgrade.chartNameChangeStrategy InPlaceUpdate",
    find: (hr) =>
      hr.spec.upgrade?.chartNameChangeStrategy === "InPlaceUpdate"
        ? "spec.upgrade.chartNameChangeStrategy 'InPlaceUpdate'"
        : undefined,
    instead:
      "remove spec.upgrade.chartNameChangeStrategy (or set it to Reinstall); when the chart's name changes " +
      "flotilla uninstalls the release and installs the new chart",
  },
];
