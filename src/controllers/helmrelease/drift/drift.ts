// CONTRACT STUB (is12-base): owned by the storage helper, who replaces the bodies.
// Drift of a release's objects on the target cluster: the stored manifest against the cluster by a
// server-side dry-run, corrected by server-side apply as field manager "helm" (not a helm upgrade).
import type { KubeClient } from "../../../kube/client.js";
import type { DriftIgnoreRule } from "../../../api/helm/helmrelease.js";
import type { StoredRelease } from "../storage/release.js";

export interface DriftEntry {
  /** "<Kind>/<namespace>/<name>" as Flux prints it. */
  subject: string;
  action: "create" | "update";
  /** Changed JSON paths (for the event message); never values. */
  paths: string[];
}

export interface DriftReport {
  entries: DriftEntry[];
}

export interface DriftOptions {
  ignore?: DriftIgnoreRule[];
  /** The namespace of namespaced objects the manifest leaves without one (the release's). */
  defaultNamespace: string;
}

/** What differs between the stored release manifest and the cluster (objects with the opt-out annotation/label skipped). */
export function detectDrift(_client: KubeClient, _release: StoredRelease, _o: DriftOptions): Promise<DriftReport> {
  throw new Error("not implemented");
}

/** Puts the drifted objects back (create missing, apply changed), returns what was corrected. */
export function correctDrift(
  _client: KubeClient,
  _release: StoredRelease,
  _report: DriftReport,
  _o: DriftOptions,
): Promise<DriftEntry[]> {
  throw new Error("not implemented");
}
