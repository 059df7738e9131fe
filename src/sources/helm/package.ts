// Packaging a chart directory with the real helm (`helm package`), optionally with another version
// (Flux's build metadata) and a replaced values.yaml (merged values files). The directory is copied
// first, so the source is never modified; helm runs in one private home (binaries/helm) per chart.
import { chartNameProblem, chartVersionProblem } from "./chart-identity.js";
import { FlotillaError } from "../../util/errors.js";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseBoundedYaml } from "../../util/yaml-nesting.js";
import { type HelmHome, runHelm, withHelmHome } from "../../binaries/helm/index.js";
import { makeWorkDir } from "../../util/work-dir.js";
import {
  checkLocalDependencies,
  ChartDependencyError,
  missingDependencies,
  readDependencies,
  type RepositoryCredentials,
} from "./dependencies.js";

export class ChartPackageError extends FlotillaError {
  override name = "ChartPackageError";
}

export interface ChartMetadata {
  name: string;
  version: string;
}

/** Name and version from Chart.yaml; throws when the directory is not a chart. */
export function readChartMetadata(dir: string): ChartMetadata {
  const file = join(dir, "Chart.yaml");
  if (!existsSync(file)) throw new ChartPackageError(`no Chart.yaml found in '${dir}'`);
  const meta = parseBoundedYaml(readFileSync(file, "utf8"), "Chart.yaml") as Partial<ChartMetadata> | null;
  if (!meta?.name) throw new ChartPackageError("validation: chart.metadata.name is required");
  if (!meta.version) throw new ChartPackageError("validation: chart.metadata.version is required");
  // Name and version become the package's file name: Helm's rules, checked before any path is made.
  const problem = chartNameProblem(String(meta.name)) ?? chartVersionProblem(String(meta.version));
  if (problem) throw new ChartPackageError(`validation: ${problem}`);
  return { name: String(meta.name), version: String(meta.version) };
}

export interface PackageOptions {
  version?: string;
  valuesYaml?: string;
  /**
   * Resolve dependencies charts/ does not vendor (charts built from source). The chart is then
   * packaged where it lies — `chartDir` must be a private copy (an unpacked artifact) — so that
   * file:// paths keep pointing at their siblings inside `sourceRoot`.
   */
  dependencies?: { sourceRoot: string; credentials: RepositoryCredentials[] };
}

async function updateDependencies(chartDir: string, home: HelmHome, opts: PackageOptions["dependencies"]) {
  const deps = readDependencies(chartDir);
  const missing = missingDependencies(chartDir, deps);
  if (!missing.length || !opts) return;
  checkLocalDependencies(chartDir, opts.sourceRoot, missing);
  // Registered repositories carry their credentials; helm matches dependencies to them by URL.
  for (const [i, c] of opts.credentials.entries())
    await runHelm(["repo", "add", `dep-${i}`, c.url, "--username", c.username, "--password-stdin"], {
      home,
      stdin: c.password,
    });
  await runHelm(["dependency", "update", chartDir], { home }).catch((err: Error) => {
    throw new ChartDependencyError(`failed to build dependencies: ${err.message}`);
  });
}

/** Packages `chartDir`; returns the .tgz bytes. */
export async function packageChart(chartDir: string, opts: PackageOptions): Promise<Buffer> {
  const work = makeWorkDir("helm-package-");
  try {
    return await withHelmHome(async (home) => {
      let dir = chartDir;
      if (opts.dependencies) await updateDependencies(chartDir, home, opts.dependencies);
      else {
        dir = join(work, "chart");
        cpSync(chartDir, dir, { recursive: true, dereference: false });
      }
      if (opts.valuesYaml !== undefined) writeFileSync(join(dir, "values.yaml"), opts.valuesYaml);
      const out = join(work, "out");
      mkdirSync(out);
      await runHelm(["package", dir, "-d", out, ...(opts.version ? ["--version", opts.version] : [])], { home });
      const tgz = readdirSync(out).find((f) => f.endsWith(".tgz"));
      if (!tgz) throw new ChartPackageError("helm package wrote no chart");
      return readFileSync(join(out, tgz));
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
