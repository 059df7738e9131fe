// The HelmRelease CRD's status schemas, field for field helm-controller's, like the spec's
// (helmrelease-schema.ts): conditions, failure counters, the digests of what was last attempted, and
// the history of releases it made.
import { arr, condition, int, inventory, obj, str } from "../crd.js";

export type HelmReleaseVersion = "v2" | "v2beta2" | "v2beta1";

/** status.history: helm-controller's snapshots of the releases it made, newest first. */
const history = (v: HelmReleaseVersion) => {
  const date = () => str({ format: "date-time" });
  const testHook = obj({ lastCompleted: date(), lastStarted: date(), phase: str() });
  return arr(
    obj(
      {
        ...(v === "v2" ? { action: str() } : {}),
        apiVersion: str(),
        appVersion: str(),
        chartName: str(),
        chartVersion: str(),
        configDigest: str(),
        deleted: date(),
        digest: str(),
        firstDeployed: date(),
        lastDeployed: date(),
        name: str(),
        namespace: str(),
        ociDigest: str(),
        status: str(),
        testHooks: { type: "object", additionalProperties: testHook },
        version: int(),
      },
      [
        "chartName",
        "chartVersion",
        "configDigest",
        "digest",
        "firstDeployed",
        "lastDeployed",
        "name",
        "namespace",
        "status",
        "version",
      ],
    ),
  );
};

/** The status of one version. */
export const helmReleaseStatus = (v: HelmReleaseVersion) => {
  const int64 = () => int({ format: "int64" });
  return obj({
    conditions: arr(condition()),
    failures: int64(),
    helmChart: str(),
    history: history(v),
    installFailures: int64(),
    lastAttemptedConfigDigest: str(),
    lastAttemptedGeneration: int64(),
    lastAttemptedReleaseAction: v === "v2beta1" ? str() : str({ enum: ["install", "upgrade"] }),
    lastAttemptedRevision: str(),
    lastAttemptedValuesChecksum: str(),
    lastHandledForceAt: str(),
    lastHandledReconcileAt: str(),
    lastHandledResetAt: str(),
    lastReleaseRevision: int(),
    observedGeneration: int64(),
    observedPostRenderersDigest: str(),
    storageNamespace: v === "v2beta1" ? str() : str({ minLength: 1, maxLength: 63 }),
    upgradeFailures: int64(),
    ...(v === "v2beta1" ? { lastAppliedRevision: str() } : { lastAttemptedRevisionDigest: str() }),
    ...(v === "v2beta2" ? { lastAppliedRevision: str() } : {}),
    ...(v === "v2"
      ? { inventory: inventory(), lastAttemptedReleaseActionDuration: str(), observedCommonMetadataDigest: str() }
      : {}),
  });
};
