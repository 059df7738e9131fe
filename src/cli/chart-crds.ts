// The files of charts/flotilla/crds/, made from the CRDs `flotilla install` applies (servedCrds), so the
// chart's CRDs are never copied by hand: scripts/gen-chart-crds.mjs writes them, a unit test checks them.
import { servedCrds } from "../api/flux-crds.js";
import { type Json, toYaml } from "../kustomize/yaml/emit.js";

export const CHART_CRDS_DIR = "charts/flotilla/crds";

const HEADER = "# Generated from flotilla's CRDs by `npm run chart:crds` (scripts/gen-chart-crds.mjs). DO NOT EDIT.\n";

/** File name → content, one CRD a file. */
export function chartCrdFiles(): Record<string, string> {
  return Object.fromEntries(
    servedCrds().map((crd) => [`${crd.metadata.name}.yaml`, HEADER + toYaml(crd as unknown as Json)]),
  );
}
