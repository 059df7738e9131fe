// A HelmRelease applied as v2beta1/v2beta2 is stored as v2 with its old fields kept (the v2 schema
// carries them, see api/helm/helmrelease-schema.ts). normalizeSpec gives them their v2 meaning, the
// meaning helm-controller gave them when it served those versions, so every later step (values,
// post-render, install/upgrade flags) reads v2 fields only:
// - chart.spec.valuesFile → first of chart.spec.valuesFiles (it was merged before them);
// - install.skipCRDs: true → install.crds: Skip, unless crds is set (an explicit policy won);
// - postRenderers[].kustomize.patchesStrategicMerge / patchesJson6902 → patches, in the order
//   kustomize applied them: strategic-merge patches first, then patches, then JSON 6902 patches.
import type { HelmChartTemplate, HelmReleaseSpec, InstallSpec, PostRenderer } from "../../api/helm/helmrelease.js";

type Patch = NonNullable<NonNullable<PostRenderer["kustomize"]>["patches"]>[number];

/** A patch as kustomize reads it: text stays text; an object (how the API stores it) becomes JSON, which is YAML. */
const patchText = (p: unknown): string => (typeof p === "string" ? p : JSON.stringify(p));

function chartTemplate(chart: HelmChartTemplate): HelmChartTemplate {
  const { valuesFile, ...spec } = chart.spec;
  if (!valuesFile) return valuesFile === undefined ? chart : { ...chart, spec };
  return { ...chart, spec: { ...spec, valuesFiles: [valuesFile, ...(spec.valuesFiles ?? [])] } };
}

function install(spec: InstallSpec): InstallSpec {
  const { skipCRDs, ...rest } = spec;
  if (skipCRDs === undefined) return spec;
  return skipCRDs && !rest.crds ? { ...rest, crds: "Skip" } : rest;
}

function postRenderer(renderer: PostRenderer): PostRenderer {
  if (!renderer.kustomize) return renderer;
  const { patchesStrategicMerge, patchesJson6902, ...kustomize } = renderer.kustomize;
  if (patchesStrategicMerge === undefined && patchesJson6902 === undefined) return renderer;
  const patches: Patch[] = [
    ...(patchesStrategicMerge ?? []).map((p) => ({ patch: patchText(p) })),
    ...(kustomize.patches ?? []),
    ...(patchesJson6902 ?? []).map((p) => ({ patch: patchText(p.patch), target: p.target })),
  ];
  return { ...renderer, kustomize: { ...kustomize, ...(patches.length ? { patches } : {}) } };
}

/** The spec with v2 meaning only: no v2beta field is left, none of the input is modified. */
export function normalizeSpec(spec: HelmReleaseSpec): HelmReleaseSpec {
  const out: HelmReleaseSpec = { ...spec };
  if (spec.chart) out.chart = chartTemplate(spec.chart);
  if (spec.install) out.install = install(spec.install);
  if (spec.postRenderers) out.postRenderers = spec.postRenderers.map(postRenderer);
  return out;
}
