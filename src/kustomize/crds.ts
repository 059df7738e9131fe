// The `crds:` field: OpenAPI definitions (kustomize's legacy map format: type name → {Schema,
// Dependencies}) whose `x-kubernetes-object-ref-kind` properties declare references from a custom
// kind to ConfigMaps, Secrets, ... — so renaming those also rewrites the custom resources.
import { KustomizeError } from "./errors.js";
import type { Loader } from "./loader.js";
import type { JsonObject } from "./resource.js";
import type { Referral } from "./transformers/name-reference-table.js";
import { parseYamlDocuments } from "./yaml/parse.js";

type Types = Record<string, { Schema?: JsonObject }>;

function walk(types: Types, typeName: string, path: string[], rootKind: string, out: Referral[], depth = 0): void {
  if (depth > 20) return;
  const properties = (types[typeName]?.Schema?.properties ?? {}) as Record<string, JsonObject>;
  for (const [prop, schema] of Object.entries(properties)) {
    const refKind = schema["x-kubernetes-object-ref-kind"];
    if (typeof refKind === "string") {
      const apiVersion = String(schema["x-kubernetes-object-ref-api-version"] ?? "v1");
      const group = apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";
      let referral = out.find((r) => r.kind === refKind && r.group === group);
      if (!referral) out.push((referral = { kind: refKind, group, referrers: [] }));
      referral.referrers.push({ kind: rootKind, path: [...path, prop, "name"].join("/") });
      continue;
    }
    const ref = typeof schema.$ref === "string" ? schema.$ref : undefined;
    if (ref && types[ref]) walk(types, ref, [...path, prop], rootKind, out, depth + 1);
  }
}

export function referralsFromCrdFile(path: string, loader: Loader, display: string): Referral[] {
  const docs = parseYamlDocuments(loader.read(path), display);
  const types = (docs[0]?.value ?? {}) as Types;
  if (typeof types !== "object" || Array.isArray(types))
    throw new KustomizeError(`${display}: crds file must be a map of type names to definitions`);
  const out: Referral[] = [];
  for (const [typeName, def] of Object.entries(types)) {
    const props = (def?.Schema?.properties ?? {}) as JsonObject;
    if (!props.kind || !props.apiVersion) continue; // not a top-level kind
    walk(types, typeName, [], typeName.slice(typeName.lastIndexOf(".") + 1), out);
  }
  return out;
}
