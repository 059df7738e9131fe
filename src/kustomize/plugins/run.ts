// The `generators:` and `transformers:` fields: each entry is a plugin configuration written inline,
// a file of them, or a kustomization directory that builds them (so an overlay can patch a base's
// plugin configurations). Each configuration runs in order (plugins/builtin.ts).
import { KustomizeError } from "../errors.js";
import type { Loader } from "../loader.js";
import { type ResMap, resourcesFromDocuments } from "../res-map.js";
import type { BuildOrigin, Resource } from "../resource.js";
import { pluginOrigin, recordTransformation } from "../build-metadata.js";
import { parseYamlDocuments } from "../yaml/parse.js";
import { runPlugin } from "./builtin.js";

/** Builds a directory entry's kustomization (accumulate.ts passes its own recursion). */
export type BuildDirectory = (path: string, entry: string) => ResMap;

/** kustomize's test: an entry that parses as objects is an inline configuration, anything else a path. */
function inlineConfigs(entry: string, display: string): Resource[] | undefined {
  let docs;
  try {
    docs = parseYamlDocuments(entry, display);
  } catch {
    return undefined;
  }
  const values = docs.map((d) => d.value);
  if (!values.length || values.some((v) => !v || typeof v !== "object" || Array.isArray(v))) return undefined;
  return resourcesFromDocuments(docs, display);
}

function configsOf(
  entry: string,
  field: string,
  loader: Loader,
  where: string,
  buildDir: BuildDirectory,
  origins: PluginOrigins | undefined,
): Resource[] {
  const path = loader.resolve(entry, field, where);
  if (loader.isDirectory(path)) return buildDir(path, entry).list;
  const configs = resourcesFromDocuments(parseYamlDocuments(loader.read(path), entry, { printedByKyaml: true }), entry);
  if (origins) for (const c of configs) c.buildOrigin = { path: origins.rel(path) };
  return configs;
}

/** When origins are tracked: the kustomization file's path, and how accumulate.ts marks new objects. */
export interface PluginOrigins {
  display: string;
  rel: (path: string) => string;
  ofNew: (resmap: ResMap, before: Set<Resource>, origin: (r: Resource) => BuildOrigin | undefined) => void;
}

export function runPlugins(
  field: "generators" | "transformers",
  entries: string[] | undefined,
  resmap: ResMap,
  loader: Loader,
  where: string,
  buildDir: BuildDirectory,
  origins?: PluginOrigins,
): void {
  for (const entry of entries ?? []) {
    if (typeof entry !== "string") throw new KustomizeError(`${where}: ${field} entries must be strings`);
    const inline = inlineConfigs(entry, `${where}: ${field} entry (inline)`);
    const configs = inline ?? configsOf(entry, field, loader, where, buildDir, origins);
    for (const config of configs) {
      // An inline configuration comes from the kustomization file.
      if (origins && inline) config.buildOrigin = { path: origins.display };
      const before = new Set(origins ? resmap.list : []);
      runPlugin(config, resmap, loader, where, field);
      if (!origins) continue;
      if (field === "generators") origins.ofNew(resmap, before, () => pluginOrigin(config));
      else recordTransformation(resmap.list, pluginOrigin(config));
    }
  }
}
