// The HelmRelease CRD's schemas, field for field helm-controller's (v1.6 for v2; v1.4, the last to
// serve it, for v2beta2; v1.3, the last to serve it, for v2beta1): structural, so the API server
// prunes a field Flux does not have, exactly as it does with Flux's CRD. One addition: v2 also
// carries the old chart.spec.valuesFile and postRenderers[].kustomize.patchesStrategicMerge /
// patchesJson6902 (install.skipCRDs is still in Flux's v2), because the API server converts a
// v2beta1/v2beta2 object to the stored v2 by pruning it with v2's schema, and flotilla honours
// those fields (normalizeSpec gives them v2 meaning) — without them a v2beta manifest's values
// file and patches would vanish without a word.
import {
  anyValue,
  arr,
  bool,
  duration,
  healthCheckExprs,
  ignoreRules,
  images,
  int,
  labelsAndAnnotations,
  obj,
  patches,
  patchesJson6902,
  patchesStrategicMerge,
  str,
  withRules,
  type Schema,
  type VersionSchema,
  dependsOnSchema,
} from "../crd.js";
import { helmReleaseStatus, type HelmReleaseVersion } from "./helmrelease-status-schema.js";

type Version = HelmReleaseVersion;
const name = (max: number) => str({ minLength: 1, maxLength: max });
const crossRef = (kinds: string[]) =>
  obj({ apiVersion: str(), kind: str({ enum: kinds }), name: name(253), namespace: name(63) }, ["kind", "name"]);

const chartTemplate = (v: Version) =>
  obj(
    {
      metadata: labelsAndAnnotations(),
      spec: obj(
        {
          chart: v === "v2beta1" ? str() : name(2048),
          ...(v === "v2beta1" ? {} : { ignoreMissingValuesFiles: bool() }),
          interval: duration(),
          reconcileStrategy: str({ default: "ChartVersion", enum: ["ChartVersion", "Revision"] }),
          sourceRef: crossRef(["HelmRepository", "GitRepository", "Bucket"]),
          // v2beta: one values file. Not Flux v2: kept so it survives conversion (see above).
          valuesFile: str(),
          valuesFiles: arr(str()),
          verify: obj(
            {
              provider: str({ default: "cosign", enum: v === "v2beta1" ? ["cosign"] : ["cosign", "notation"] }),
              secretRef: obj({ name: str() }, ["name"]),
            },
            ["provider"],
          ),
          version: str({ default: "*" }),
        },
        ["chart", "sourceRef"],
      ),
    },
    ["spec"],
  );

const remediation = (upgrade: boolean) =>
  obj({
    ignoreTestFailures: bool(),
    remediateLastFailure: bool(),
    retries: int(),
    ...(upgrade ? { strategy: str({ enum: ["rollback", "uninstall"] }) } : {}),
  });
const strategy = (rule: [string, string]) =>
  withRules(
    obj({ name: str({ enum: ["RemediateOnFailure", "RetryOnFailure"] }), retryInterval: duration() }, ["name"]),
    [rule],
  );
const serverSideApply = () => str({ enum: ["enabled", "disabled", "auto"] });
/** What install and upgrade share; v2 adds schema validation, take-ownership and server-side apply. */
const action = (v: Version, upgrade: boolean): Record<string, Schema> => ({
  crds: str({ enum: ["Skip", "Create", "CreateReplace"] }),
  disableHooks: bool(),
  disableOpenAPIValidation: bool(),
  ...(v === "v2" ? { disableSchemaValidation: bool(), disableTakeOwnership: bool() } : {}),
  disableWait: bool(),
  disableWaitForJobs: bool(),
  remediation: remediation(upgrade),
  timeout: duration(),
});

const install = (v: Version) =>
  obj({
    ...action(v, false),
    createNamespace: bool(),
    replace: bool(),
    skipCRDs: bool(),
    ...(v === "v2"
      ? {
          serverSideApply: bool(),
          strategy: strategy([
            "!has(self.retryInterval) || self.name != 'RemediateOnFailure'",
            ".retryInterval cannot be set when .name is 'RemediateOnFailure'",
          ]),
        }
      : {}),
  });

const upgrade = (v: Version) =>
  obj({
    ...action(v, true),
    cleanupOnFail: bool(),
    force: bool(),
    preserveValues: bool(),
    ...(v === "v2"
      ? {
          chartNameChangeStrategy: str({ enum: ["InPlaceUpdate", "Reinstall"] }),
          serverSideApply: serverSideApply(),
          strategy: strategy([
            "!has(self.retryInterval) || self.name == 'RetryOnFailure'",
            ".retryInterval can only be set when .name is 'RetryOnFailure'",
          ]),
        }
      : {}),
  });

const rollback = (v: Version) =>
  obj({
    cleanupOnFail: bool(),
    disableHooks: bool(),
    disableWait: bool(),
    disableWaitForJobs: bool(),
    force: bool(),
    recreate: bool(),
    ...(v === "v2" ? { serverSideApply: serverSideApply() } : {}),
    timeout: duration(),
  });

const kubeConfig = (v: Version) => {
  const secretRef = obj({ key: str(), name: str() }, ["name"]);
  if (v === "v2beta1") return obj({ secretRef }, ["secretRef"]);
  const exactlyOne = "exactly one of spec.kubeConfig.configMapRef or spec.kubeConfig.secretRef must be specified";
  return withRules(obj({ configMapRef: obj({ name: str() }, ["name"]), secretRef }), [
    ["has(self.configMapRef) || has(self.secretRef)", exactlyOne],
    ["!has(self.configMapRef) || !has(self.secretRef)", exactlyOne],
  ]);
};

const valuesFrom = (v: Version) =>
  arr(
    obj(
      {
        kind: str({ enum: ["Secret", "ConfigMap"] }),
        ...(v === "v2" ? { literal: bool() } : {}),
        name: name(253),
        optional: bool(),
        targetPath: str({ maxLength: 250, pattern: "^([a-zA-Z0-9_\\-.\\\\\\/]|\\[[0-9]{1,5}\\])+$" }),
        valuesKey: str({ maxLength: 253, pattern: "^[\\-._a-zA-Z0-9]+$" }),
      },
      ["kind", "name"],
    ),
  );

// patchesStrategicMerge/patchesJson6902: v2beta only in Flux; in v2 too (see above).
const postRenderers = () =>
  arr(
    obj({
      kustomize: obj({
        images: images(),
        patches: patches(),
        patchesJson6902: patchesJson6902(),
        patchesStrategicMerge: patchesStrategicMerge(),
      }),
    }),
  );

const spec = (v: Version) => {
  const fields: Record<string, Schema> = {
    chart: chartTemplate(v),
    chartRef: crossRef(
      v === "v2" ? ["OCIRepository", "HelmChart", "ExternalArtifact"] : ["OCIRepository", "HelmChart"],
    ),
    dependsOn: v === "v2" ? dependsOnSchema() : arr(obj({ name: str(), namespace: str() }, ["name"])),
    driftDetection: obj({
      ignore: ignoreRules(),
      mode: str({ enum: ["enabled", "warn", "disabled"] }),
    }),
    install: install(v),
    interval: duration(),
    kubeConfig: kubeConfig(v),
    maxHistory: int(),
    persistentClient: bool(),
    postRenderers: postRenderers(),
    releaseName: name(53),
    rollback: rollback(v),
    serviceAccountName: v === "v2beta1" ? str() : name(253),
    storageNamespace: name(63),
    suspend: bool(),
    targetNamespace: name(63),
    test: obj({
      enable: bool(),
      ...(v === "v2beta1" ? {} : { filters: arr(obj({ exclude: bool(), name: name(253) }, ["name"])) }),
      ignoreFailures: bool(),
      timeout: duration(),
    }),
    timeout: duration(),
    uninstall: obj({
      deletionPropagation: str({ default: "background", enum: ["background", "foreground", "orphan"] }),
      disableHooks: bool(),
      disableWait: bool(),
      keepHistory: bool(),
      timeout: duration(),
    }),
    upgrade: upgrade(v),
    values: anyValue(),
    valuesFrom: valuesFrom(v),
    ...(v === "v2"
      ? {
          commonMetadata: labelsAndAnnotations(),
          healthCheckExprs: healthCheckExprs(),
          postRenderStrategy: str({ enum: ["nohooks", "combined", "separate"] }),
          waitStrategy: obj({ name: str({ enum: ["poller", "legacy"] }) }, ["name"]),
        }
      : {}),
  };
  if (v === "v2beta1") return obj(fields, ["chart", "interval"]);
  return withRules(obj(fields, ["interval"]), [
    [
      "(has(self.chart) && !has(self.chartRef)) || (!has(self.chart) && has(self.chartRef))",
      "either chart or chartRef must be set",
    ],
  ]);
};

export const helmReleaseSchemas: Record<Version, VersionSchema> = {
  v2: { spec: spec("v2"), status: helmReleaseStatus("v2") },
  v2beta2: { spec: spec("v2beta2"), status: helmReleaseStatus("v2beta2") },
  v2beta1: { spec: spec("v2beta1"), status: helmReleaseStatus("v2beta1") },
};
