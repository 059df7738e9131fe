// Packaging a chart directory with the real helm (`helm package`), optionally with another version
// (Flux's build metadata) and a replaced values.yaml (merged values files). The directory is copied
// first, so the source is never modified; helm runs with private, empty config and cache homes.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { makeWorkDir } from "../../util/work-dir.js";

export class ChartPackageError extends Error {
  override name = "ChartPackageError";
}

export interface ChartMetadata {
  name: string;
  version: string;
}

/** helm from the toolchain tools/build.sh makes (or $FLOTILLA_TOOLS_DIR), else from PATH (a container). */
export function helmBinary(env: NodeJS.ProcessEnv = process.env): string {
  const built = join(env.FLOTILLA_TOOLS_DIR || join(homedir(), ".cache", "flotilla", "tools"), "bin", "helm");
  return existsSync(built) ? built : "helm";
}

/** Name and version from Chart.yaml; throws when the directory is not a chart. */
export function readChartMetadata(dir: string): ChartMetadata {
  const file = join(dir, "Chart.yaml");
  if (!existsSync(file)) throw new ChartPackageError(`no Chart.yaml found in '${dir}'`);
  const meta = parse(readFileSync(file, "utf8")) as Partial<ChartMetadata> | null;
  if (!meta?.name) throw new ChartPackageError("validation: chart.metadata.name is required");
  if (!meta.version) throw new ChartPackageError("validation: chart.metadata.version is required");
  return { name: String(meta.name), version: String(meta.version) };
}

function run(args: string[], home: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      HELM_CACHE_HOME: join(home, "cache"),
      HELM_CONFIG_HOME: join(home, "config"),
      HELM_DATA_HOME: join(home, "data"),
    };
    const child = spawn(helmBinary(), args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.once("error", (err) => reject(new ChartPackageError(`helm: ${err.message}`)));
    child.once("close", (code) =>
      code === 0 ? resolve() : reject(new ChartPackageError(stderr.trim().split("\n").pop() ?? `helm exited ${code}`)),
    );
  });
}

/** Packages `chartDir`; returns the .tgz bytes. */
export async function packageChart(chartDir: string, opts: { version?: string; valuesYaml?: string }): Promise<Buffer> {
  const work = makeWorkDir("helm-package-");
  try {
    const copy = join(work, "chart");
    cpSync(chartDir, copy, { recursive: true, dereference: false });
    if (opts.valuesYaml !== undefined) writeFileSync(join(copy, "values.yaml"), opts.valuesYaml);
    const out = join(work, "out");
    mkdirSync(out);
    await run(["package", copy, "-d", out, ...(opts.version ? ["--version", opts.version] : [])], join(work, "home"));
    const tgz = readdirSync(out).find((f) => f.endsWith(".tgz"));
    if (!tgz) throw new ChartPackageError("helm package wrote no chart");
    return readFileSync(join(out, tgz));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
