// FleetHelmRelease's children are HelmReleases: the cluster's kubeconfig Secret, and the cluster's values
// expanded in every string of the template's values (an undefined one fails that cluster, naming it).
import type { FleetHelmRelease } from "../../api/fleet/fleet-helmrelease.js";
import type { HelmReleaseSpec } from "../../api/helm/helmrelease.js";
import { SERVED_KINDS } from "../../api/kinds.js";
import { clusterVariables, expandClusterVariables } from "../clusters.js";
import type { ChildKind } from "../children/child-kind.js";
import { FLEET_HELMRELEASE_LABEL } from "../children/fleet-dependencies.js";
import { fanOutController } from "../fanout/setup.js";
import { helmReleasePins } from "./pinned-version.js";

export { FLEET_HELMRELEASE_LABEL };

function expandValues(v: unknown, vars: Record<string, string>, where: string): unknown {
  if (typeof v === "string") return expandClusterVariables(v, vars, where);
  if (Array.isArray(v)) return v.map((x, i) => expandValues(x, vars, `${where}[${i}]`));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expandValues(x, vars, `${where}.${k}`)]));
  return v;
}

export const fleetHelmReleaseKind: ChildKind<FleetHelmRelease> = {
  parent: SERVED_KINDS.FleetHelmRelease,
  child: SERVED_KINDS.HelmRelease,
  parentLabel: FLEET_HELMRELEASE_LABEL,
  childSpec(fhr, c) {
    const spec: HelmReleaseSpec = structuredClone(fhr.spec.template.spec);
    if (spec.values)
      spec.values = expandValues(spec.values, clusterVariables(c), "spec.template.spec.values") as Record<
        string,
        unknown
      >;
    const ref = c.spec.kubeConfig.secretRef;
    spec.kubeConfig = { secretRef: { name: ref.name, ...(ref.key ? { key: ref.key } : {}) } };
    return spec as unknown as Record<string, unknown>;
  },
  // A chart from an OCIRepository: `<version>@<artifact digest>` (the digest is what a rollout of a chartRef compares).
  revisionOf: (hr) => {
    const s = hr.status as
      { history?: { chartVersion?: string; ociDigest?: string }[]; lastAttemptedRevision?: string } | undefined;
    const last = s?.history?.[0];
    if (last?.ociDigest) return `${last.chartVersion}@${last.ociDigest}`;
    return last?.chartVersion ?? s?.lastAttemptedRevision;
  },
  // helm-controller leaves a suspended HelmRelease's release installed when the object is deleted.
  orphanPatch: { spec: { suspend: true } },
  pins: helmReleasePins,
};

export const fleetHelmReleaseController = fanOutController("fleethelmrelease", fleetHelmReleaseKind);
