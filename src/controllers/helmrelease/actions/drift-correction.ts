// Drift correction: the release's objects changed or removed on the cluster are put back from the
// release manifest, without helm (helm-controller's CorrectClusterDrift); in warn mode only reported.
import type { KubeClient } from "../../../kube/client.js";
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import type { Condition } from "../../../api/meta/conditions.js";
import { correctDrift, detectDrift, type DriftReport } from "../drift/drift.js";
import { releaseId } from "../release-status.js";
import type { StoredRelease } from "../storage/types.js";

/** spec.driftDetection.mode; flotilla's default when the field is absent: enabled (the guide's "keep it there"). */
export const driftMode = (hr: HelmRelease) => hr.spec.driftDetection?.mode ?? "enabled";

/** The release's objects that differ from its manifest (spec.driftDetection.ignore left out). */
export function detectReleaseDrift(hr: HelmRelease, client: KubeClient, last: StoredRelease, namespace: string) {
  return detectDrift(client, last, { ignore: hr.spec.driftDetection?.ignore, defaultNamespace: namespace });
}

/** Drifted as a settled release shows it; none when detection is disabled (the condition is removed). */
export function driftedCondition(
  hr: HelmRelease,
  last: StoredRelease,
  drift: DriftReport | undefined,
): Omit<Condition, "lastTransitionTime"> | undefined {
  if (driftMode(hr) === "disabled") return undefined;
  if (!drift?.entries.length)
    return { type: "Drifted", status: "False", reason: "NoDriftDetected", message: "No drift detected" };
  return { type: "Drifted", status: "True", reason: "DriftDetected", message: driftMessage(last, drift) };
}

export function driftMessage(r: StoredRelease, d: DriftReport): string {
  return `Cluster state of release ${releaseId(r)} has drifted from the desired state: ${d.entries.map((e) => `${e.subject} ${e.action === "create" ? "removed" : "changed"}`).join(", ")}`;
}

/** Puts the drifted objects back; returns the message of the DriftCorrected event and Drifted=False. */
export async function correctReleaseDrift(
  client: KubeClient,
  last: StoredRelease,
  drift: DriftReport,
): Promise<string> {
  const fixed = await correctDrift(client, drift);
  return `Cluster state of release ${releaseId(last)} has been corrected: ${fixed.map((e) => `${e.subject} ${e.action}d`).join(", ")}`;
}
