// A kustomization's `openapi:` field: a local OpenAPI (swagger) document, JSON or YAML, that tells
// strategic merge how the lists of custom kinds merge. As in kustomize it *replaces* the built-in
// Kubernetes schema for the rest of the build (a Deployment patched under a custom schema that does
// not define Deployments has its lists replaced, not merged), and the first one met wins: the top
// kustomization's, else the first included kustomization that has one. `version:` may only name
// the built-in schema's version. A schema from a URL is refused by name: flotilla never fetches.
import { KustomizeError, UnsupportedFieldError } from "../errors.js";
import type { Loader } from "../loader.js";
import type { JsonObject } from "../resource.js";
import { parseYamlDocuments } from "../yaml/parse.js";

export type FieldInfo = [ref: string] | [ref: string, strategy: string, keys: string[]];
export interface SchemaTable {
  kinds: Record<string, string>;
  defs: Record<string, Record<string, FieldInfo>>;
}

/** The Kubernetes version kustomize (kyaml) has built in. */
export const BUILTIN_OPENAPI_VERSION = "v1.21.2";

const refName = (s: JsonObject | undefined): string =>
  typeof s?.$ref === "string" ? s.$ref.replace("#/definitions/", "") : "";

/** Indexes a definition's properties; inline object schemas become definitions of their own. */
function index(name: string, def: JsonObject, defs: SchemaTable["defs"]): void {
  const fields: Record<string, FieldInfo> = {};
  defs[name] = fields;
  const target = (schema: JsonObject | undefined, path: string): string => {
    if (!schema) return "";
    const ref = refName(schema);
    if (ref) return ref;
    if (schema.properties || schema.additionalProperties) {
      index(path, schema, defs);
      return path;
    }
    return "";
  };
  for (const [field, p] of Object.entries((def.properties ?? {}) as Record<string, JsonObject>)) {
    if (!p || typeof p !== "object") continue;
    const items = p.type === "array" ? (p.items as JsonObject | undefined) : undefined;
    const ref = target(items ?? p, `${name}/${field}`);
    const strategy = String(p["x-kubernetes-patch-strategy"] ?? "");
    const keys = Array.isArray(p["x-kubernetes-list-map-keys"])
      ? (p["x-kubernetes-list-map-keys"] as string[])
      : typeof p["x-kubernetes-patch-merge-key"] === "string"
        ? [p["x-kubernetes-patch-merge-key"]]
        : [];
    fields[field] = strategy.split(",").includes("merge") ? [ref, strategy, keys] : [ref];
  }
  const extra = def.additionalProperties;
  if (extra && typeof extra === "object" && !Array.isArray(extra)) {
    const ref = target(extra as JsonObject, `${name}/*`);
    if (ref) fields["*"] = [ref];
  }
}

function parseSchema(text: string, display: string): SchemaTable {
  const doc = parseYamlDocuments(text, display)[0]?.value;
  if (!doc || typeof doc !== "object" || Array.isArray(doc))
    throw new KustomizeError(`${display}: an OpenAPI schema must be a map with definitions`);
  const definitions = ((doc as JsonObject).definitions ?? {}) as Record<string, JsonObject>;
  const table: SchemaTable = { kinds: {}, defs: {} };
  for (const [name, def] of Object.entries(definitions)) {
    if (!def || typeof def !== "object") continue;
    index(name, def, table.defs);
    for (const gvk of (def["x-kubernetes-group-version-kind"] ?? []) as JsonObject[]) {
      const apiVersion = gvk.group ? `${gvk.group}/${gvk.version}` : String(gvk.version);
      table.kinds[`${apiVersion} ${gvk.kind}`] = name;
    }
  }
  return table;
}

/**
 * The schema a kustomization's `openapi` field selects: a table for a custom schema, `"builtin"` for
 * the built-in version, undefined when the field is absent.
 */
export function readOpenApiField(
  field: unknown,
  loader: Loader,
  display: string,
  rel: (path: string) => string,
): SchemaTable | "builtin" | undefined {
  if (field === undefined || field === null) return undefined;
  if (typeof field !== "object" || Array.isArray(field))
    throw new KustomizeError(`${display}: openapi must be a map with path or version`);
  const { path, version, ...rest } = field as Record<string, unknown>;
  for (const key of Object.keys(rest))
    throw new UnsupportedFieldError(`${display}: unknown field "${key}" in openapi (path or version)`);
  if (path !== undefined && version !== undefined)
    throw new KustomizeError(`${display}: openapi: builtin version and custom schema provided, cannot use both`);
  if (version !== undefined) {
    if (version !== BUILTIN_OPENAPI_VERSION)
      throw new KustomizeError(
        `${display}: openapi version ${String(version)}: the specified OpenAPI version is not built in (only ${BUILTIN_OPENAPI_VERSION})`,
      );
    return "builtin";
  }
  if (typeof path !== "string" || !path) return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path))
    throw new UnsupportedFieldError(
      `${display}: openapi path ${path} is a URL, which flotilla never fetches: vendor the schema into the repository and name the file`,
    );
  const file = loader.resolve(path, "openapi", display);
  return parseSchema(loader.read(file), rel(file));
}
