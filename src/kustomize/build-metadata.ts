// The top kustomization's `buildMetadata:`: where each object came from (originAnnotations: the file,
// or the generator and the kustomization that configured it), every transformer that ran over it
// (transformerAnnotations), and kustomize's managed-by label — recorded as kustomize records them.
import { KustomizeError } from "./errors.js";
import type { BuildOrigin, JsonObject, Resource } from "./resource.js";
import { printsPlain } from "./yaml/emit.js";
import { setPairs } from "./transformers/labels.js";
import { ResMap } from "./res-map.js";

const OPTIONS = ["originAnnotations", "transformerAnnotations", "managedByLabel"];
const ORIGIN = "config.kubernetes.io/origin";
const TRANSFORMATIONS = "alpha.config.kubernetes.io/transformations";
/** The label kustomize's managedByLabel adds, with the version of kustomize flotilla reproduces. */
const MANAGED_BY = { "app.kubernetes.io/managed-by": "kustomize-v5.8.2" };

export function checkBuildMetadata(options: unknown, where: string): string[] {
  if (options === undefined || options === null) return [];
  if (!Array.isArray(options)) throw new KustomizeError(`${where}: buildMetadata must be a list of options`);
  for (const o of options)
    if (!OPTIONS.includes(o as string))
      throw new KustomizeError(`${where}: buildMetadata option "${String(o)}" is not one of ${OPTIONS.join(", ")}`);
  return options as string[];
}

/** The origin a builtin generator or transformer of a kustomization gives. */
export const builtinOrigin = (kustomizationFile: string, kind: string): BuildOrigin => ({
  configuredIn: kustomizationFile,
  configuredBy: { apiVersion: "builtin", kind },
});

/** kustomize's OriginFromCustomPlugin: a plugin configuration, as the origin of what it does. */
export function pluginOrigin(config: Resource): BuildOrigin | undefined {
  if (!config.buildOrigin) return undefined;
  const m = (config.obj.metadata ?? {}) as JsonObject;
  const by: NonNullable<BuildOrigin["configuredBy"]> = {
    apiVersion: String(config.obj.apiVersion),
    kind: String(config.obj.kind),
  };
  if (m.name) by.name = String(m.name);
  if (m.namespace) by.namespace = String(m.namespace);
  return { configuredIn: config.buildOrigin.path, configuredBy: by };
}

/** kustomize's AddTransformerAnnotation: an object without an origin takes the transformer's. */
export function recordTransformation(resources: Resource[], origin: BuildOrigin | undefined): void {
  if (!origin) return;
  for (const r of resources) {
    if (!r.buildOrigin) r.buildOrigin = origin;
    else (r.transformations ??= []).push(origin);
  }
}

const scalar = (v: string) => (printsPlain(v) ? v : JSON.stringify(v));

/** The origin as kyaml marshals it (field order path, configuredIn, configuredBy). */
function originLines(o: BuildOrigin): string[] {
  const lines: string[] = [];
  if (o.path) lines.push(`path: ${scalar(o.path)}`);
  if (o.configuredIn) lines.push(`configuredIn: ${scalar(o.configuredIn)}`);
  if (o.configuredBy) {
    lines.push("configuredBy:");
    for (const key of ["apiVersion", "kind", "name", "namespace"] as const) {
      const v = o.configuredBy[key];
      if (v) lines.push(`  ${key}: ${scalar(v)}`);
    }
  }
  return lines;
}

/** At the end of the build: the annotations and label the top kustomization's buildMetadata asks for. */
export function applyBuildMetadata(resources: Resource[], options: string[]): void {
  if (!options.length) return;
  if (options.includes("managedByLabel")) {
    const resmap = new ResMap();
    resmap.list.push(...resources);
    setPairs(resmap, MANAGED_BY, [{ path: "metadata/labels", create: true }]);
  }
  for (const r of resources) {
    const annotations: JsonObject = {};
    if (options.includes("originAnnotations") && r.buildOrigin)
      annotations[ORIGIN] = `${originLines(r.buildOrigin).join("\n")}\n`;
    if (options.includes("transformerAnnotations") && r.transformations?.length)
      annotations[TRANSFORMATIONS] = r.transformations
        .map(
          (t) =>
            `${originLines(t)
              .map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`))
              .join("\n")}\n`,
        )
        .join("");
    if (!Object.keys(annotations).length) continue;
    const m = (r.obj.metadata ??= {}) as JsonObject;
    m.annotations = { ...((m.annotations as JsonObject | undefined) ?? {}), ...annotations };
  }
}
