// Chart dependencies of a chart built from source (Git), as Flux's source-controller resolves them:
// what charts/ already vendors is used as is; the rest comes from `helm dependency update` — file://
// paths within the source artifact only (never outside it), chart repositories by URL, with the
// credentials of the namespace's HelmRepository for that URL when there is one. Passwords go to helm
// on stdin, never on a command line.
import { FlotillaError } from "../../util/errors.js";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { confinedRealpath } from "../../util/confined-path.js";
import { parseBoundedYaml } from "../../util/yaml-nesting.js";

export interface ChartDependency {
  name: string;
  version?: string;
  repository?: string;
  alias?: string;
}

export interface RepositoryCredentials {
  url: string;
  username: string;
  password: string;
}

export class ChartDependencyError extends FlotillaError {
  override name = "ChartDependencyError";
}

export function readDependencies(chartDir: string): ChartDependency[] {
  const meta = parseBoundedYaml(readFileSync(join(chartDir, "Chart.yaml"), "utf8"), "Chart.yaml") as {
    dependencies?: ChartDependency[];
  } | null;
  return (meta?.dependencies ?? []).filter((d) => d && typeof d.name === "string");
}

/** Dependencies charts/ does not vendor yet (a directory, or a `<name>-<version>.tgz`). */
export function missingDependencies(chartDir: string, deps: ChartDependency[]): ChartDependency[] {
  const charts = join(chartDir, "charts");
  const present = existsSync(charts) ? readdirSync(charts) : [];
  return deps.filter((d) => !present.some((f) => f === d.name || (f.startsWith(`${d.name}-`) && f.endsWith(".tgz"))));
}

/** Refuses file:// dependencies that point outside the source artifact (Flux's secure loader). */
export function checkLocalDependencies(chartDir: string, sourceRoot: string, deps: ChartDependency[]): void {
  for (const d of deps) {
    if (!d.repository?.startsWith("file://")) continue;
    const target = resolve(chartDir, d.repository.slice("file://".length));
    // Links resolved: a path inside the artifact that is a link leading out is outside too.
    const realRoot = realpathSync.native(sourceRoot);
    if ("outside" in confinedRealpath(resolve(realRoot, relative(sourceRoot, target)), realRoot))
      throw new ChartDependencyError(
        `dependency '${d.name}': '${d.repository}' is outside the source artifact; vendor it in charts/ or keep it in the repository`,
      );
    if (!existsSync(join(target, "Chart.yaml")))
      throw new ChartDependencyError(`dependency '${d.name}': no chart at '${d.repository}'`);
  }
}

/** Chart repository URLs the missing dependencies need, normalised (no trailing slash). */
export function repositoryUrls(deps: ChartDependency[]): string[] {
  const urls = deps
    .map((d) => d.repository ?? "")
    .filter((r) => /^https?:\/\//.test(r))
    .map((r) => r.replace(/\/+$/, ""));
  return [...new Set(urls)];
}
