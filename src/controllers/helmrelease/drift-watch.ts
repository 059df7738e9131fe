// A HelmRelease's rendered objects, watched for drift (decision 0026; the machinery is in
// ../drift-watch/): the post-renderer's owner labels, helm's field manager, and its drift
// correction's own rules — only with driftDetection mode enabled (flotilla's default), never for
// objects opted out with helm.toolkit.fluxcd.io/driftDetection: disabled.
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import { HELM_GROUP } from "../../api/kinds.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { Cluster } from "../../kube/cluster.js";
import type { Controller } from "../../runtime/controller.js";
import { type OwnerKind, watchOwnerDrift } from "../drift-watch/owner-drift.js";
import { DRIFT_OPT_OUT, optedOut } from "./drift/drift.js";

export const HELM_RELEASE_OWNER: OwnerKind = {
  labelGroup: HELM_GROUP,
  // What helm v4 writes with — an Apply with --server-side, an Update without — and what the drift
  // correction applies as (drift/drift.ts), so any operation: a field taken from it is drift the
  // correction puts back (unless an ignore rule drops it: then it is taken once and stays taken).
  own: { manager: "helm" },
  idle: (o) => {
    const hr = o as HelmRelease;
    return (
      Boolean(hr.spec?.suspend || o.metadata.deletionTimestamp) ||
      (hr.spec?.driftDetection?.mode ?? "enabled") !== "enabled"
    );
  },
  exemption: (obj: KubeObject) => (optedOut(obj) ? `${DRIFT_OPT_OUT}: disabled` : undefined),
};

export function watchHelmReleaseDrift(controller: Controller, local: Cluster): void {
  watchOwnerDrift(controller, local, HELM_RELEASE_OWNER);
}
