// The kustomization file: found by kustomize's names, read with our YAML reader, and checked field
// by field — a field we do not implement is an error naming it, never silently ignored.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { KustomizeError, UnsupportedFieldError } from "./errors.js";
import type { Json } from "./yaml/emit.js";
import { type ParsedDocument, parseYamlDocuments } from "./yaml/parse.js";

const KUSTOMIZATION_FILE_NAMES = ["kustomization.yaml", "kustomization.yml", "Kustomization"];

export interface Target {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

export interface Patch {
  path?: string;
  patch?: string;
  target?: Target;
  options?: { allowNameChange?: boolean; allowKindChange?: boolean };
}

export interface GeneratorArgs {
  name?: string;
  namespace?: string;
  behavior?: "create" | "merge" | "replace";
  literals?: string[];
  files?: string[];
  envs?: string[];
  env?: string;
  type?: string;
  options?: GeneratorOptions;
}

export interface GeneratorOptions {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  disableNameSuffixHash?: boolean;
  immutable?: boolean;
}

export interface Label {
  pairs: Record<string, string>;
  includeSelectors?: boolean;
  includeTemplates?: boolean;
  includeVolumeClaimTemplates?: boolean;
  fields?: { path: string; kind?: string; group?: string; version?: string; create?: boolean }[];
}

export interface Image {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
  tagSuffix?: string;
}

export interface Replica {
  name: string;
  count: number;
}

/** The contents of a kustomization.yaml (the Flux Kustomization object is api/kustomize/kustomization.ts). */
export interface KustomizationFile {
  apiVersion?: string;
  kind?: string;
  metadata?: Record<string, Json>;
  resources?: string[];
  bases?: string[];
  components?: string[];
  crds?: string[];
  namespace?: string;
  namePrefix?: string;
  nameSuffix?: string;
  commonLabels?: Record<string, string>;
  labels?: Label[];
  commonAnnotations?: Record<string, string>;
  patches?: Patch[];
  patchesStrategicMerge?: string[];
  patchesJson6902?: Patch[];
  images?: Image[];
  replicas?: Replica[];
  configMapGenerator?: GeneratorArgs[];
  secretGenerator?: GeneratorArgs[];
  generatorOptions?: GeneratorOptions;
  replacements?: Json[];
  sortOptions?: { order?: "legacy" | "fifo"; legacySortOptions?: { orderFirst?: string[]; orderLast?: string[] } };
  buildMetadata?: string[];
  /** A custom OpenAPI schema for strategic merge (patches/custom-schema.ts). */
  openapi?: Json;
  /** Plugin configurations: inline, files or directories (plugins/). */
  generators?: string[];
  transformers?: string[];
  /** Legacy variables (transformers/vars.ts). */
  vars?: Json[];
  /** Transformer configuration files (transformers/config.ts). */
  configurations?: string[];
  /** Checked where they are used (helm/chart-spec.ts), once helm is enabled. */
  helmCharts?: Json[];
  helmGlobals?: Json;
}

const SUPPORTED = new Set([
  "apiVersion", "kind", "metadata", "resources", "bases", "components", "crds", "namespace", "namePrefix",
  "nameSuffix", "commonLabels", "labels", "commonAnnotations", "patches", "patchesStrategicMerge",
  "patchesJson6902", "images", "replicas", "configMapGenerator", "secretGenerator", "generatorOptions",
  "replacements", "sortOptions", "helmCharts", "helmGlobals", "configurations", "vars", "generators", "transformers", "openapi", "buildMetadata",
]); // prettier-ignore

/** Fields kustomize knows that we refuse for now, with what to do instead. */
const NOT_YET: Record<string, string> = {
  helmChartInflationGenerator: "it is deprecated; use helmCharts (with --enable-helm)",
  validators: "validator plugins are not supported",
  imageTags: "use images instead",
};

const LABEL_FIELDS = new Set([
  "pairs",
  "includeSelectors",
  "includeTemplates",
  "includeVolumeClaimTemplates",
  "fields",
]);

export function findKustomizationFile(dir: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  const found = KUSTOMIZATION_FILE_NAMES.filter((n) => names.includes(n));
  if (found.length > 1) {
    throw new KustomizeError(`Found multiple kustomization files under: ${dir} (${found.join(", ")}); keep one`);
  }
  return found[0] && join(dir, found[0]);
}

/**
 * Field names as Go's encoding/json reads them into kustomize's struct: an exact name first, else any
 * case (`nameprefix`, `Resources`), a later key overriding an earlier one for the same field.
 */
function canonicalKeys(value: Record<string, unknown>): Record<string, unknown> {
  const known = [...SUPPORTED, ...Object.keys(NOT_YET)];
  const byLower = new Map(known.map((k) => [k.toLowerCase(), k]));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const name = known.includes(key) ? key : (byLower.get(key.toLowerCase()) ?? key);
    if (name in out) delete out[name]; // keep document order: the later key is the one that counts
    out[name] = v;
  }
  return out;
}

export function parseKustomization(text: string | ParsedDocument[], file: string): KustomizationFile {
  const docs = typeof text === "string" ? parseYamlDocuments(text, file) : text;
  if (docs.length > 1)
    throw new KustomizeError(`${file}: a kustomization file must hold one document, found ${docs.length}`);
  const value = docs[0]?.value ?? {};
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new KustomizeError(`${file}: not a mapping`);
  const fields = canonicalKeys(value as Record<string, unknown>);
  for (const key of Object.keys(fields)) {
    if (NOT_YET[key] !== undefined)
      throw new UnsupportedFieldError(
        `${file}: field "${key}" is not supported by flotilla's kustomize: ${NOT_YET[key]}`,
      );
    if (!SUPPORTED.has(key)) throw new UnsupportedFieldError(`${file}: unknown field "${key}" in kustomization`);
  }
  const k = fields as KustomizationFile;
  for (const [i, image] of (k.images ?? []).entries()) {
    for (const f of ["name", "newName", "newTag", "digest", "tagSuffix"] as const) {
      if (image[f] !== undefined && typeof image[f] !== "string") {
        throw new KustomizeError(`${file}: images[${i}].${f} must be a string, got ${JSON.stringify(image[f])}`);
      }
    }
  }
  for (const [i, label] of (k.labels ?? []).entries()) {
    for (const key of Object.keys(label ?? {}))
      if (!LABEL_FIELDS.has(key)) throw new UnsupportedFieldError(`${file}: unknown field "${key}" in labels[${i}]`);
  }
  if (k.kind && !["Kustomization", "Component"].includes(k.kind)) {
    throw new KustomizeError(`${file}: kind "${k.kind}" is not a kustomization (expected Kustomization or Component)`);
  }
  // kustomize checks the apiVersion when one is given: Components are v1alpha1, Kustomizations v1beta1.
  const kind = k.kind || "Kustomization";
  const wanted = kind === "Component" ? "kustomize.config.k8s.io/v1alpha1" : "kustomize.config.k8s.io/v1beta1";
  if (k.apiVersion && k.apiVersion !== wanted)
    throw new KustomizeError(`${file}: apiVersion for ${kind} should be ${wanted}, not ${k.apiVersion}`);
  return k;
}
