// The Kustomization CRD's schemas, field for field Flux's (kustomize-controller v1.9 for v1; v1.6,
// the last to serve them, for v1beta2 and v1beta1): structural, so the API server prunes a field
// Flux does not have, exactly as it does with Flux's CRDs. One addition: v1 also carries the
// v1beta patchesStrategicMerge/patchesJson6902, because the API server converts a v1beta object to
// the stored v1 by pruning it with v1's schema, and flotilla honours those fields — without them a
// v1beta manifest's patches would vanish without a word.
import {
  arr,
  bool,
  condition,
  duration,
  healthCheckExprs,
  ignoreRules,
  images,
  int,
  inventory,
  labelsAndAnnotations,
  localRef,
  obj,
  patches,
  patchesJson6902,
  patchesStrategicMerge,
  str,
  strMap,
  withRules,
  type Schema,
  type VersionSchema,
  dependsOnSchema,
} from "../crd.js";

const interval = () => duration();
const nameLimits = { minLength: 1, maxLength: 200 };

const healthChecks = () =>
  arr(obj({ apiVersion: str(), kind: str(), name: str(), namespace: str() }, ["kind", "name"]));
const substituteFrom = (withOptional: boolean) =>
  arr(
    obj(
      {
        kind: str({ enum: ["Secret", "ConfigMap"] }),
        name: str({ minLength: 1, maxLength: 253 }),
        ...(withOptional ? { optional: { ...bool(), default: false } } : {}),
      },
      ["kind", "name"],
    ),
  );
const sourceRef = (kinds: string[]) =>
  obj({ apiVersion: str(), kind: str({ enum: kinds }), name: str(), namespace: str() }, ["kind", "name"]);
const decryption = (v1: boolean) =>
  obj(
    {
      provider: str({ enum: ["sops"] }),
      secretRef: localRef(),
      ...(v1 ? { serviceAccountName: str() } : {}),
    },
    ["provider"],
  );

/** What every version has, with the version's own shape of a few fields. */
const common = (v1beta1: boolean): Record<string, Schema> => ({
  dependsOn: arr(obj({ name: str(), namespace: str() }, ["name"])),
  decryption: decryption(false),
  force: { ...bool(), default: false },
  healthChecks: healthChecks(),
  images: images(),
  interval: v1beta1 ? str() : interval(),
  patches: patches(),
  path: str(),
  prune: bool(),
  retryInterval: v1beta1 ? str() : interval(),
  serviceAccountName: str(),
  suspend: bool(),
  targetNamespace: str({ minLength: 1, maxLength: 63 }),
  timeout: v1beta1 ? str() : interval(),
});

const v1Spec = obj(
  {
    ...common(false),
    buildMetadata: arr(str({ enum: ["originAnnotations", "transformerAnnotations"] })),
    commonMetadata: labelsAndAnnotations(),
    components: arr(str()),
    decryption: decryption(true),
    deletionPolicy: str({ enum: ["MirrorPrune", "Delete", "WaitForTermination", "Orphan"] }),
    dependsOn: dependsOnSchema(),
    healthCheckExprs: healthCheckExprs(),
    ignore: ignoreRules(),
    ignoreMissingComponents: bool(),
    kubeConfig: withRules(obj({ configMapRef: localRef(), secretRef: obj({ name: str(), key: str() }, ["name"]) }), [
      [
        "has(self.configMapRef) || has(self.secretRef)",
        "exactly one of spec.kubeConfig.configMapRef or spec.kubeConfig.secretRef must be specified",
      ],
      [
        "!has(self.configMapRef) || !has(self.secretRef)",
        "exactly one of spec.kubeConfig.configMapRef or spec.kubeConfig.secretRef must be specified",
      ],
    ]),
    namePrefix: str(nameLimits),
    nameSuffix: str(nameLimits),
    postBuild: obj({
      substitute: strMap(),
      substituteFrom: substituteFrom(true),
      substituteStrategy: str({ enum: ["WithVariables", "Always"] }),
    }),
    sourceRef: sourceRef(["OCIRepository", "GitRepository", "Bucket", "ExternalArtifact"]),
    wait: bool(),
    // Not Flux v1: kept so v1beta manifests survive conversion to the stored version (see above).
    patchesJson6902: patchesJson6902(),
    patchesStrategicMerge: patchesStrategicMerge(),
  },
  ["interval", "prune", "sourceRef"],
);

const v1beta2Spec = obj(
  {
    ...common(false),
    commonMetadata: labelsAndAnnotations(),
    components: arr(str()),
    kubeConfig: obj({ secretRef: obj({ name: str(), key: str() }, ["name"]) }, ["secretRef"]),
    patchesJson6902: patchesJson6902(),
    patchesStrategicMerge: patchesStrategicMerge(),
    postBuild: obj({ substitute: strMap(), substituteFrom: substituteFrom(true) }),
    sourceRef: sourceRef(["OCIRepository", "GitRepository", "Bucket"]),
    validation: str({ enum: ["none", "client", "server"] }),
    wait: bool(),
  },
  ["interval", "prune", "sourceRef"],
);

const v1beta1Spec = obj(
  {
    ...common(true),
    kubeConfig: obj({ secretRef: localRef() }, ["secretRef"]),
    patchesJson6902: patchesJson6902(),
    patchesStrategicMerge: patchesStrategicMerge(),
    postBuild: obj({ substitute: strMap(), substituteFrom: substituteFrom(false) }),
    sourceRef: sourceRef(["GitRepository", "Bucket"]),
    validation: str({ enum: ["none", "client", "server"] }),
  },
  ["interval", "prune", "sourceRef"],
);

const history = () =>
  arr(
    obj(
      {
        digest: str(),
        firstReconciled: str({ format: "date-time" }),
        lastReconciled: str({ format: "date-time" }),
        lastReconciledDuration: str(),
        lastReconciledStatus: str(),
        metadata: strMap(),
        totalReconciliations: int({ format: "int64" }),
      },
      [
        "digest",
        "firstReconciled",
        "lastReconciled",
        "lastReconciledDuration",
        "lastReconciledStatus",
        "totalReconciliations",
      ],
    ),
  );

const statusOf = (extra: Record<string, Schema>) =>
  obj({
    observedGeneration: int({ format: "int64" }),
    conditions: arr(condition()),
    lastAppliedRevision: str(),
    lastAttemptedRevision: str(),
    lastHandledReconcileAt: str(),
    ...extra,
  });

export const kustomizationSchemas: Record<string, VersionSchema> = {
  v1: {
    spec: v1Spec,
    status: statusOf({ inventory: inventory(), history: history(), lastAppliedOriginRevision: str() }),
  },
  v1beta2: { spec: v1beta2Spec, status: statusOf({ inventory: inventory() }) },
  v1beta1: {
    spec: v1beta1Spec,
    status: statusOf({
      snapshot: obj({ checksum: str(), entries: arr(obj({ namespace: str(), kinds: strMap() }, ["kinds"])) }, [
        "checksum",
        "entries",
      ]),
    }),
  },
};
