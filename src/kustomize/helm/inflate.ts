// kustomize's helmCharts generator with --enable-helm: render each chart with the real `helm
// template` (through binaries/helm: an argument array, a private home, the version checked once per
// process) and add what it prints as resources, marked as helm-generated so the namespace
// transformer leaves them to helm. Off unless the build enables it;
// a chart that is not vendored under chartHome is pulled only when pulls are enabled too.
import { existsSync, realpathSync, rmSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { confinedRealpath } from "../../util/confined-path.js";
import { type ResMap, resourcesFromDocuments } from "../res-map.js";
import { HelmError, runHelmSync } from "../../binaries/helm/index.js";
import { makeWorkDir } from "../../util/work-dir.js";
import { KustomizeError, LoadRestrictionError } from "../errors.js";
import type { KustomizationFile } from "../kustomization-file.js";
import { confinedPath, type Loader } from "../loader.js";
import { type JsonObject, meta } from "../resource.js";
import { parseYamlDocuments } from "../yaml/parse.js";
import { checkChart, checkGlobals, type HelmChartInflation, pullArgs, templateArgs } from "./chart-spec.js";
import { writeValuesFile } from "./values.js";

export interface HelmOptions {
  /** The helm binary (kustomize's --helm-command); flotilla's pinned helm, else PATH's, by default. */
  command?: string;
  /** Allow `helm pull` of charts that are not vendored (network access). */
  allowPull?: boolean;
  /** Extra environment for helm (e.g. proxies for pulls); helm sees nothing else of ours. */
  env?: Record<string, string>;
}

const HELM_GENERATED = "internal.config.kubernetes.io/helm-generated";

/** kustomize's layout when helmGlobals.configHome is set: the user's config, with cache and data inside. */
const configHomeEnv = (configHome: string) => ({
  HELM_CONFIG_HOME: configHome,
  HELM_CACHE_HOME: `${configHome}/.cache`,
  HELM_DATA_HOME: `${configHome}/.data`,
});

function runHelm(helm: HelmOptions, args: string[], configHome: string | undefined, where: string): string {
  try {
    const env = { ...helm.env, ...(configHome ? configHomeEnv(configHome) : {}) };
    return runHelmSync(args, { binary: helm.command, env }).stdout;
  } catch (err) {
    if (!(err instanceof HelmError)) throw err;
    if (!err.result) throw new KustomizeError(`${where}: ${err.message}`, { cause: err });
    const why = err.stderr.trim() || err.message;
    throw new KustomizeError(`${where}: helm ${args.join(" ")} failed: ${why}`, { cause: err });
  }
}

/** kustomize keeps charts pulled from a versioned repo apart: chartHome/name-version/name. */
function chartHomeOf(c: HelmChartInflation, root: string, chartHome: string): string {
  const home = isAbsolute(chartHome) ? chartHome : join(root, chartHome);
  return c.version && c.repo ? join(home, `${c.name}-${c.version}`) : home;
}

/** helm reads the chart directly, so we keep it under the kustomization root (the artifact, when confined) ourselves. */
function checkUnderRoot(dir: string, loader: Loader, where: string): void {
  if (loader.confineTo) {
    confinedPath(dir, loader.confineTo, `${where}: chart directory ${dir}`);
    return;
  }
  const rel = relative(loader.root, realpathSync(dir));
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel))
    throw new LoadRestrictionError(`${where}: chart directory ${dir} is outside the kustomization root ${loader.root}`);
}

/** Confined, helm may neither pull into nor read its configuration from outside the artifact. */
function checkHelmDirs(untarDir: string, configHome: string | undefined, loader: Loader, where: string): void {
  if (!loader.confineTo) return;
  for (const [what, dir] of [
    ["helmGlobals.chartHome", untarDir],
    ["helmGlobals.configHome", configHome],
  ] as const) {
    const found = dir && confinedRealpath(resolve(loader.root, dir), loader.confineTo);
    if (found && "outside" in found)
      throw new LoadRestrictionError(
        `${where}: ${what} '${dir}' leads outside the source artifact: security; file '${found.outside}' is not in or below '${loader.confineTo}'; keep charts inside the repository`,
      );
  }
}

function inflate(
  c: HelmChartInflation,
  home: string,
  configHome: string | undefined,
  helm: HelmOptions,
  loader: Loader,
  where: string,
): JsonObject[] {
  // Checked before helm runs, as kustomize does: the additional values files must load.
  const extraValues = (c.additionalValuesFiles ?? []).map((f) => loader.resolve(f, "additionalValuesFiles", where));
  const tmp = makeWorkDir("kustomize-helm-");
  try {
    const untarDir = chartHomeOf(c, loader.root, home);
    checkHelmDirs(untarDir, configHome, loader, where);
    const chartDir = join(untarDir, c.name!);
    if (!existsSync(chartDir) || !statSync(chartDir).isDirectory()) {
      if (!c.repo) throw new KustomizeError(`${where}: no repo specified for pull, no chart found at '${chartDir}'`);
      if (!helm.allowPull)
        throw new KustomizeError(
          `${where}: chart "${c.name}" is not in ${untarDir} and pulling it from ${c.repo} is disabled; ` +
            `vendor the chart there, or allow pulls (flotilla kustomize build --helm-allow-pull)`,
        );
      runHelm(helm, pullArgs(c, untarDir), configHome, where);
    }
    checkUnderRoot(chartDir, loader, where);
    const valuesPath = c.valuesFile
      ? loader.resolve(c.valuesFile, "valuesFile", where)
      : existsSync(join(chartDir, "values.yaml"))
        ? loader.resolve(join(chartDir, "values.yaml"), "valuesFile", where)
        : undefined;
    const values = writeValuesFile(c, valuesPath, loader, tmp, where);
    const out = runHelm(helm, templateArgs(c, chartDir, values, extraValues), configHome, where);
    const display = `${where} (helm template of chart ${c.name})`;
    return resourcesFromDocuments(parseYamlDocuments(out, display, { printedByKyaml: true }), display).map(
      (r) => r.obj,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Runs the kustomization's charts and adds their objects. `namespace` is the release namespace for
 * charts that name none: the kustomization's own, else the nearest parent's.
 */
export function runHelmCharts(
  k: KustomizationFile,
  resmap: ResMap,
  loader: Loader,
  where: string,
  helm: HelmOptions | undefined,
  namespace: string | undefined,
): void {
  if (k.helmCharts === undefined || k.helmCharts === null) return;
  if (!Array.isArray(k.helmCharts)) throw new KustomizeError(`${where}: helmCharts must be a list`);
  if (k.helmCharts.length === 0) return;
  if (!helm)
    throw new KustomizeError(
      `${where}: field "helmCharts" needs helm, which is off: enable it with \`flotilla kustomize build --enable-helm\` ` +
        `(the enableHelm build option), as kustomize needs --enable-helm`,
    );
  const globals = checkGlobals(k.helmGlobals, `${where}: helmGlobals`);
  for (const [i, entry] of k.helmCharts.entries()) {
    const c = checkChart(entry, `${where}: helmCharts[${i}]`);
    if (!c.namespace && namespace) c.namespace = namespace;
    const objs = inflate(c, globals.chartHome || "charts", globals.configHome, helm, loader, where);
    for (const [index, obj] of objs.entries()) {
      const r = { obj, origin: { file: `${where} (chart ${c.name})`, index }, previous: [] };
      ((meta(r).annotations ??= {}) as JsonObject)[HELM_GENERATED] = "true";
      resmap.add(r, where);
    }
  }
}
