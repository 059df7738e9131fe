// What kustomize does to every resource at the very end: references to renamed objects fixed, build
// annotations stripped, metadata.annotations rewritten as strings (an empty map dropped), and
// local-config resources left out.
import { type JsonObject, jsonText, meta, type Resource } from "../resource.js";
import type { Json } from "../yaml/emit.js";
import { fixNameReferences } from "./name-reference.js";
import type { FieldSpec } from "./field-spec.js";
import { NAME_REFERENCES, type Referral } from "./name-reference-table.js";
import { resolveVars, type Var } from "./vars.js";

const BUILD_ANNOTATIONS = new Set([
  ...[
    "previousKinds",
    "previousNames",
    "prefixes",
    "suffixes",
    "previousNamespaces",
    "allowNameChange",
    "allowKindChange",
    "refBy",
    "generatorBehavior",
    "needsHashSuffix",
    "path",
    "index",
    "seqindent",
    "id",
    "annotations-migration-resource-id",
    "helm-generated",
  ].map((k) => `internal.config.kubernetes.io/${k}`),
  "config.kubernetes.io/path",
  "config.kubernetes.io/index",
  "config.k8s.io/id",
  "config.kubernetes.io/origin",
  "alpha.config.kubernetes.io/transformations",
]);

const asString = (v: Json): string =>
  typeof v === "string" ? v : v === null ? "null" : typeof v === "object" ? jsonText(v) : String(v);

/** References fixed first, then vars resolved (they read names after every rename), then local-config dropped. */
export function finalize(
  resources: Resource[],
  referrals: Referral[] = NAME_REFERENCES,
  vars?: { vars?: Var[]; varReference: FieldSpec[] },
): Resource[] {
  fixNameReferences(resources, referrals);
  if (vars) resolveVars(resources, vars.vars, vars.varReference);
  const kept = resources.filter(
    (r) => (meta(r).annotations as JsonObject | undefined)?.["config.kubernetes.io/local-config"] !== "true",
  );
  for (const r of kept) {
    const m = meta(r);
    if (m.annotations === undefined) continue;
    const annotations = (m.annotations ?? {}) as JsonObject;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(annotations)) if (!BUILD_ANNOTATIONS.has(k)) out[k] = asString(v);
    if (Object.keys(out).length) m.annotations = out;
    else delete m.annotations;
  }
  return kept;
}
