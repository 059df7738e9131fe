// How a FleetHelmRelease's staged rollout holds a cluster at a chart from an OCIRepository
// (`spec.template.spec.chartRef`): the revision is the OCIRepository's `<tag>@sha256:<digest>`, and a held
// child reads a copy of that OCIRepository pinned at the manifest digest (rollout/pinned-source.ts), so
// a new tag — or the same tag pushed again — reaches each cluster only when its stage does. A child has
// applied the revision when its newest release records that digest (status.history[0].ociDigest, as
// helm-controller writes it).
import type { FleetHelmRelease } from "../../api/fleet/fleet-helmrelease.js";
import type { HelmReleaseSpec } from "../../api/helm/helmrelease.js";
import { SERVED_KINDS } from "../../api/kinds.js";
import type { RevisionPins } from "../children/child-kind.js";
import { InvalidRollout } from "../rollout/members.js";
import { liveSourceRevision, type PinnedSourceRef, pinSource, sweepPinned } from "../rollout/pinned-source.js";

/** The template's chartRef, which a rollout can pin: an OCIRepository in the parent's own namespace. */
export function chartRefSource(fhr: FleetHelmRelease): PinnedSourceRef {
  const ref = fhr.spec.template.spec.chartRef!;
  if (ref.kind !== "OCIRepository")
    throw new InvalidRollout(
      `spec.rollout pins each stage to an OCI artifact digest, which only an OCIRepository chartRef has; spec.template.spec.chartRef is a ${ref.kind}`,
    );
  if (ref.namespace && ref.namespace !== fhr.metadata.namespace)
    throw new InvalidRollout(
      `spec.rollout pins the chart next to the FleetHelmRelease; OCIRepository ${ref.namespace}/${ref.name} is in another namespace: put the OCIRepository in ${fhr.metadata.namespace}`,
    );
  return { kind: "OCIRepository", name: ref.name };
}

export const ociChartPins: RevisionPins<FleetHelmRelease> = {
  live: (client, fhr) => liveSourceRevision(client, fhr, chartRefSource(fhr)),
  pin: (client, fhr, revision) => pinSource(client, fhr, "FleetHelmRelease", chartRefSource(fhr), revision),
  pinnedSpec: (spec, handle) => {
    const hr = spec as unknown as HelmReleaseSpec;
    return { ...hr, chartRef: { kind: "OCIRepository", name: handle } } as unknown as Record<string, unknown>;
  },
  handleOf: (child) => {
    const ref = (child.spec as unknown as HelmReleaseSpec).chartRef;
    return ref?.kind === "OCIRepository" ? ref.name : undefined;
  },
  sweep: (client, fhr, inUse) => sweepPinned(client, fhr, inUse),
  // A new artifact of the OCIRepository is a new revision on offer.
  sources: [
    {
      kind: SERVED_KINDS.OCIRepository,
      parentsOf: (repo, parents) =>
        parents.filter(
          (p) =>
            p.spec.rollout &&
            p.metadata.namespace === repo.metadata.namespace &&
            p.spec.template.spec.chartRef?.kind === "OCIRepository" &&
            p.spec.template.spec.chartRef.name === repo.metadata.name,
        ),
    },
  ],
};
