// How a FleetHelmRelease's staged rollout holds a cluster at a revision: the revision is the chart
// version, and a held child installs exactly that version (`chart.spec.version` pinned) while the
// template may name a range. What the range offers now is read from a HelmChart the fleet keeps for the
// parent (`<parent>-rollout`, the template's chart spec, owned by the parent, labelled as the template's
// chart so the same controllers serve it). Only charts from a HelmRepository can be pinned by version;
// a chart from Git or a bucket (whose version may stay while its content changes) is refused by name.
// A chartRef is pinned at its OCI digest instead (pinned-oci-chart.ts); helmReleasePins picks by template.
import type { FleetHelmRelease } from "../../api/fleet/fleet-helmrelease.js";
import type { HelmChartTemplate, HelmReleaseSpec } from "../../api/helm/helmrelease.js";
import { apiVersionOf, SERVED_KINDS } from "../../api/kinds.js";
import type { KubeObject } from "../../api/meta/object.js";
import { pathOf } from "../../api/paths.js";
import type { KubeClient } from "../../kube/client.js";
import { NotFoundError } from "../../kube/errors.js";
import type { RevisionPins } from "../children/child-kind.js";
import { FLEET_FIELD_MANAGER } from "../children/children.js";
import { InvalidRollout } from "../rollout/members.js";
import { ociChartPins } from "./pinned-oci-chart.js";

export const trackingChartName = (fhr: FleetHelmRelease) => `${fhr.metadata.name}-rollout`;

function pinnableChart(fhr: FleetHelmRelease): HelmChartTemplate {
  const spec = fhr.spec.template.spec;
  const chart = spec.chart;
  if (!chart) throw new InvalidRollout("spec.rollout needs spec.template.spec.chart or spec.template.spec.chartRef");
  const ref = chart.spec.sourceRef;
  if (ref.kind !== "HelmRepository")
    throw new InvalidRollout(
      `spec.rollout pins each stage to a chart version, which only a HelmRepository chart is; spec.template.spec.chart.spec.sourceRef is a ${ref.kind}`,
    );
  if (ref.namespace && ref.namespace !== fhr.metadata.namespace)
    throw new InvalidRollout(
      `spec.rollout reads the chart's versions next to the FleetHelmRelease; HelmRepository ${ref.namespace}/${ref.name} is in another namespace`,
    );
  return chart;
}

async function liveVersion(client: KubeClient, fhr: FleetHelmRelease): Promise<string | undefined> {
  const chart = pinnableChart(fhr);
  const ns = fhr.metadata.namespace!;
  const name = trackingChartName(fhr);
  const applied = await client.apply<KubeObject & { status?: { artifact?: { revision?: string } } }>(
    pathOf(SERVED_KINDS.HelmChart, ns, name),
    {
      apiVersion: apiVersionOf(SERVED_KINDS.HelmChart),
      kind: "HelmChart",
      metadata: {
        name,
        namespace: ns,
        ...(chart.metadata?.labels ? { labels: chart.metadata.labels } : {}),
        ownerReferences: [
          {
            apiVersion: apiVersionOf(SERVED_KINDS.FleetHelmRelease),
            kind: "FleetHelmRelease",
            name: fhr.metadata.name,
            uid: fhr.metadata.uid!,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        chart: chart.spec.chart,
        ...(chart.spec.version ? { version: chart.spec.version } : {}),
        sourceRef: { kind: "HelmRepository", name: chart.spec.sourceRef.name },
        interval: chart.spec.interval ?? fhr.spec.template.spec.interval ?? "10m",
      },
    },
    FLEET_FIELD_MANAGER,
    { force: true },
  );
  return applied.status?.artifact?.revision;
}

export const chartVersionPins: RevisionPins<FleetHelmRelease> = {
  live: liveVersion,
  pin: (_client, fhr, revision) => {
    pinnableChart(fhr);
    return Promise.resolve(revision);
  },
  pinnedSpec: (spec, version) => {
    const hr = spec as unknown as HelmReleaseSpec;
    return {
      ...hr,
      chart: { ...hr.chart!, spec: { ...hr.chart!.spec, version } },
    } as unknown as Record<string, unknown>;
  },
  handleOf: () => undefined,
  // Versions pin nothing outside the children; the tracking chart goes with the rollout.
  sweep: async (client, fhr, _inUse, rolloutActive) => {
    if (rolloutActive) return;
    await client
      .delete(pathOf(SERVED_KINDS.HelmChart, fhr.metadata.namespace, trackingChartName(fhr)))
      .catch((err: unknown) => {
        if (!(err instanceof NotFoundError)) throw err;
      });
  },
  // The tracking chart's new artifact is a new version on offer.
  sources: [
    {
      kind: SERVED_KINDS.HelmChart,
      parentsOf: (chart, parents) =>
        parents.filter(
          (p) => p.metadata.namespace === chart.metadata.namespace && chart.metadata.name === trackingChartName(p),
        ),
    },
  ],
};

const byTemplate = (fhr: FleetHelmRelease) => (fhr.spec.template.spec.chartRef ? ociChartPins : chartVersionPins);

/** A rollout of a chart from a HelmRepository holds clusters at a version; of a chartRef, at an OCI digest. */
export const helmReleasePins: RevisionPins<FleetHelmRelease> = {
  live: (client, fhr) => byTemplate(fhr).live(client, fhr),
  pin: (client, fhr, revision) => byTemplate(fhr).pin(client, fhr, revision),
  pinnedSpec: (spec, handle) =>
    ((spec as unknown as HelmReleaseSpec).chartRef ? ociChartPins : chartVersionPins).pinnedSpec(spec, handle),
  handleOf: (child) => ociChartPins.handleOf(child),
  // Both kinds of pin are swept: a template that moved between chart and chartRef leaves neither behind.
  sweep: async (client, fhr, inUse, rolloutActive) => {
    await ociChartPins.sweep(client, fhr, inUse, rolloutActive);
    await chartVersionPins.sweep(client, fhr, inUse, rolloutActive && !fhr.spec.template.spec.chartRef);
  },
  sources: [...chartVersionPins.sources, ...ociChartPins.sources],
};
