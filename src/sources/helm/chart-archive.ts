// Checks that downloaded bytes are a chart before they are stored and served, as Flux loads every
// chart it pulls: a gzipped tar whose one top directory holds a Chart.yaml with a valid name and
// version. Without it a tenant's index could point the controller at any URL (a cluster-internal
// address) and have the answer re-served by the artifact server (issue 28).
import { FlotillaError } from "../../util/errors.js";
import { parseBoundedYaml } from "../../util/yaml-nesting.js";
import { ArtifactLimitError } from "../artifact/errors.js";
import { limiter } from "../artifact/extract.js";
import type { ArtifactLimits } from "../artifact/limits.js";
import { readTarGz } from "../artifact/tar-reader.js";
import { chartNameProblem, chartVersionProblem } from "./chart-identity.js";

export class NotAChartError extends FlotillaError {
  override name = "NotAChartError";
}

const MAX_CHART_YAML = 1024 * 1024;

/** Name and version from the archive's `<top>/Chart.yaml`; NotAChartError naming what is wrong. */
export async function inspectChartArchive(
  data: Buffer,
  limits: ArtifactLimits,
  what: string,
): Promise<{ name: string; version: string }> {
  const count = limiter(limits, what);
  let top: string | undefined;
  let chartYaml: Buffer[] | undefined;
  let collecting = false;
  let size = 0;
  try {
    await readTarGz(data, {
      header(h) {
        count(h);
        const parts = h.path.replace(/^\.\//, "").split("/").filter(Boolean);
        if (!parts.length) return;
        top ??= parts[0];
        if (parts[0] !== top) throw new NotAChartError(`${what} has more than one top directory`);
        collecting = parts.length === 2 && parts[1] === "Chart.yaml" && h.typeflag !== "5";
        if (collecting) chartYaml = [];
      },
      data(chunk) {
        if (!collecting) return;
        size += chunk.length;
        if (size > MAX_CHART_YAML) throw new NotAChartError(`${what}: Chart.yaml is larger than 1 MiB`);
        chartYaml!.push(chunk);
      },
      end() {
        collecting = false;
      },
    });
  } catch (err) {
    // Over a limit, or an unsafe entry: said as extraction says it (the archive may be a chart, just refused).
    if (err instanceof NotAChartError || err instanceof ArtifactLimitError) throw err;
    throw new NotAChartError(`${what} is not a chart archive: ${(err as Error).message}`);
  }
  if (!chartYaml) throw new NotAChartError(`${what} is not a chart: it holds no Chart.yaml`);
  let meta: { name?: unknown; version?: unknown } | null;
  try {
    meta = parseBoundedYaml(Buffer.concat(chartYaml).toString("utf8"), "Chart.yaml") as typeof meta;
  } catch (err) {
    throw new NotAChartError(`${what}: Chart.yaml does not parse: ${(err as Error).message}`);
  }
  const name = typeof meta?.name === "string" ? meta.name : "";
  const version = meta?.version == null ? "" : String(meta.version);
  const problem = chartNameProblem(name) ?? chartVersionProblem(version);
  if (problem) throw new NotAChartError(`${what}: Chart.yaml ${problem}`);
  return { name, version };
}
