// HelmChart spec.valuesFiles: YAML files, relative to the source's root, deep-merged in order (later
// wins; maps merge, anything else is replaced) into the values.yaml the packaged chart carries — as
// Flux does, so the chart's own values.yaml counts only when it is listed.
import { FlotillaError } from "../../util/errors.js";
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { confinedRealpath } from "../../util/confined-path.js";
import { join, normalize, sep } from "node:path";
import { stringify } from "yaml";
import { parseBoundedYaml } from "../../util/yaml-nesting.js";

export class ValuesFilesError extends FlotillaError {
  override name = "ValuesFilesError";
}

type Values = Record<string, unknown>;
const isMap = (v: unknown): v is Values => typeof v === "object" && v !== null && !Array.isArray(v);

export function mergeValues(base: Values, overlay: Values): Values {
  const out: Values = { ...base };
  for (const [k, v] of Object.entries(overlay)) out[k] = isMap(v) && isMap(out[k]) ? mergeValues(out[k], v) : v;
  return out;
}

/** Flux: a lone "values.yaml" means the chart's defaults, i.e. nothing to merge. */
export function effectiveValuesFiles(files: string[] | undefined): string[] {
  const list = files ?? [];
  return list.length === 1 && normalize(list[0]!) === "values.yaml" ? [] : list;
}

/** Merges the files under `root`; returns the values and the files that contributed. */
export function mergeValuesFiles(
  root: string,
  files: string[],
  ignoreMissing: boolean,
): { values: Values; files: string[] } {
  let values: Values = {};
  const used: string[] = [];
  for (const file of files) {
    const full = normalize(join(root, file));
    // Links resolved, as Flux's secure loader reads them: a link leading out is outside too.
    const realRoot = realpathSync.native(root);
    if (
      !full.startsWith(root + sep) ||
      "outside" in confinedRealpath(join(realRoot, full.slice(root.length)), realRoot)
    )
      throw new ValuesFilesError(
        `values file '${file}' is outside the source artifact; keep values files in the repository and list them by a path inside it`,
      );
    if (!existsSync(full) || !statSync(full).isFile()) {
      if (ignoreMissing && !existsSync(full)) continue;
      throw new ValuesFilesError(`no values file found at path '${full.slice(root.length)}' (reference '${file}')`);
    }
    let parsed: unknown;
    try {
      parsed = parseBoundedYaml(readFileSync(full, "utf8"), "the values file") ?? {};
    } catch (err) {
      throw new ValuesFilesError(`unmarshaling values from '${file}' failed: ${(err as Error).message}`);
    }
    if (!isMap(parsed)) throw new ValuesFilesError(`unmarshaling values from '${file}' failed: not a map`);
    values = mergeValues(values, parsed);
    used.push(file);
  }
  return { values, files: used };
}

/** values.yaml text as helm writes it (keys sorted). */
export const valuesYaml = (values: Values) =>
  Object.keys(values).length ? stringify(values, { sortMapEntries: true }) : "";
