// The values file kustomize hands to `helm template -f`: the chart's values.yaml (or valuesFile)
// as it is, or — with valuesInline — the two merged by kyaml's merge (inline over file for
// "override", file over inline for "merge", inline alone for "replace") and written out again.
// Helm still lays the chart's own values.yaml under whatever it is given.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { KustomizeError } from "../errors.js";
import type { Loader } from "../loader.js";
import { type JsonObject, jsonText } from "../resource.js";
import { strategicMerge } from "../patches/strategic-merge.js";
import { parseYamlDocuments } from "../yaml/parse.js";
import type { HelmChartInflation } from "./chart-spec.js";

function parseValues(text: string, display: string): JsonObject {
  const docs = parseYamlDocuments(text, display);
  // kyaml cannot parse a file without a document, so kustomize cannot merge into it.
  if (docs.length === 0)
    throw new KustomizeError(`${display}: could not parse the values file to merge valuesInline into: it is empty`);
  const v = docs[0]!.value;
  if (v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) throw new KustomizeError(`${display}: values must be a mapping`);
  return v;
}

/**
 * Writes the values file for one chart into `tmpDir` and returns its path. `valuesPath` is the
 * chart's values file, already resolved under the kustomization root.
 */
export function writeValuesFile(
  c: HelmChartInflation,
  valuesPath: string | undefined,
  loader: Loader,
  tmpDir: string,
  display: string,
): string {
  const out = join(tmpDir, `${c.name}-kustomize-values.yaml`);
  const inline = c.valuesInline ?? {};
  const merge = c.valuesMerge || "override";
  const read = () => {
    if (!valuesPath) throw new KustomizeError(`${display}: the chart has no values file`);
    return loader.read(valuesPath);
  };
  if (Object.keys(inline).length === 0) {
    writeFileSync(out, read());
    return out;
  }
  let values: JsonObject | undefined = structuredClone(inline);
  if (merge !== "replace") {
    const fromFile = parseValues(read(), `${display}: values file ${valuesPath}`);
    values =
      merge === "override"
        ? strategicMerge(fromFile, structuredClone(inline))
        : strategicMerge(structuredClone(inline), fromFile);
  }
  // JSON is YAML: helm reads it as such.
  writeFileSync(out, `${jsonText(values ?? {})}\n`);
  return out;
}
