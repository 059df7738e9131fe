// kustomize's transformer configuration: which fields each builtin transformer touches. It starts
// from kustomize's own defaults (schema/builtin-fieldspecs.json) and grows with the `configurations:`
// files of a kustomization and of everything it includes — merged as kustomize merges them (a field
// spec already there is kept once; the same one with another `create` is an error).
import builtin from "../schema/builtin-fieldspecs.json" with { type: "json" };
import { KustomizeError } from "../errors.js";
import { gvkCompare } from "../sort.js";
import type { Loader } from "../loader.js";
import { parseYamlDocuments } from "../yaml/parse.js";
import type { FieldSpec } from "./field-spec.js";
import { type Referral, referralsOf } from "./name-reference-table.js";

const SPEC_LISTS = [
  "namePrefix",
  "nameSuffix",
  "commonLabels",
  "labels",
  "templateLabels",
  "volumeClaimTemplateLabels",
  "commonAnnotations",
  "namespace",
  "varReference",
  "images",
  "replicas",
] as const;
type SpecList = (typeof SPEC_LISTS)[number];

export type TransformerConfig = Record<SpecList, FieldSpec[]> & { nameReference: Referral[] };

/** kustomize's effectivelyEquals: the same path, and `existing` selected by the incoming kind/group/version. */
const effectivelyEquals = (existing: FieldSpec, incoming: FieldSpec) =>
  existing.path === incoming.path &&
  (!incoming.group || existing.group === incoming.group) &&
  (!incoming.version || existing.version === incoming.version) &&
  (!incoming.kind || existing.kind === incoming.kind);

/**
 * FsSlice.MergeAll then sortFields: a spec already covered is kept once — so a generic spec met after a
 * specific one for the same path is dropped, as in kustomize — and the list is sorted by kind (stable
 * here; Go's sort is not, which only matters for specs of one kind, none of which kustomize orders).
 */
function mergeSpecs(into: FieldSpec[], incoming: FieldSpec[], where: string): void {
  mergeFieldSpecs(into, [...incoming].sort(gvkCompare), where);
  into.sort(gvkCompare);
}

/** FsSlice.MergeAll alone (no sort): what kustomize does to a labels entry's own field specs. */
export function mergeFieldSpecs(into: FieldSpec[], incoming: FieldSpec[], where: string): FieldSpec[] {
  for (const fs of incoming) {
    const found = into.find((x) => effectivelyEquals(x, fs));
    if (!found) into.push(fs);
    else if (Boolean(found.create) !== Boolean(fs.create))
      throw new KustomizeError(`${where}: conflicting fieldspecs for path ${fs.path} (create differs)`);
  }
  return into;
}

/** Adds `other` to `into`, as kustomize's TransformerConfig.Merge. */
export function mergeConfig(into: TransformerConfig, other: TransformerConfig, where: string): void {
  if (into === other) return;
  for (const list of SPEC_LISTS) mergeSpecs(into[list], other[list], where);
  for (const referral of other.nameReference) {
    // nbrSlice.mergeOne: referrers of the same target merged (unsorted), new targets appended.
    const same = into.nameReference.find(
      (r) =>
        r.kind === referral.kind &&
        (r.group ?? "") === (referral.group ?? "") &&
        (r.version ?? "") === (referral.version ?? ""),
    );
    if (same) mergeSpecs(same.referrers, referral.referrers, where);
    else into.nameReference.push({ ...referral, referrers: [...referral.referrers] });
  }
  into.nameReference.sort(gvkCompare);
}

export function emptyConfig(): TransformerConfig {
  const c = Object.fromEntries(SPEC_LISTS.map((k) => [k, [] as FieldSpec[]])) as Record<SpecList, FieldSpec[]>;
  return { ...c, nameReference: [] };
}

/** kustomize's defaults, loaded as kustomize loads any configuration: merged into an empty one (so sorted). */
export function defaultConfig(): TransformerConfig {
  const c = emptyConfig();
  const loaded = emptyConfig();
  for (const list of SPEC_LISTS)
    loaded[list] = structuredClone((builtin as unknown as Record<string, FieldSpec[] | null>)[list] ?? []);
  loaded.nameReference = structuredClone(referralsOf(builtin.nameReference as Parameters<typeof referralsOf>[0]));
  mergeConfig(c, loaded, "kustomize's default configuration");
  return c;
}

/** The defaults, shared and never modified: a ResMap copies them before merging a configuration. */
export const DEFAULT_CONFIG: TransformerConfig = defaultConfig();

const FIELD_SPEC_KEYS = new Set(["path", "kind", "group", "version", "create", "behavior"]);

function fieldSpecs(value: unknown, where: string): FieldSpec[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new KustomizeError(`${where}: must be a list of field specs`);
  return value.map((fs, i) => {
    if (!fs || typeof fs !== "object" || Array.isArray(fs))
      throw new KustomizeError(`${where}[${i}]: a field spec is a map with path (and kind, group, version, create)`);
    for (const key of Object.keys(fs))
      if (!FIELD_SPEC_KEYS.has(key)) throw new KustomizeError(`${where}[${i}]: unknown field "${key}" in a field spec`);
    const spec = fs as FieldSpec;
    if (typeof spec.path !== "string") throw new KustomizeError(`${where}[${i}]: a field spec needs a path`);
    return spec;
  });
}

/**
 * A kustomization's own configuration, as kustomize's MakeTransformerConfig: its files merged into an
 * empty configuration, then that merged into the defaults (or the shared defaults when it has none).
 */
export function ownConfig(
  files: string[] | undefined,
  loader: Loader,
  display: (path: string) => string,
  where: string,
): TransformerConfig {
  if (!files?.length) return DEFAULT_CONFIG;
  const custom = emptyConfig();
  for (const entry of files) {
    const path = loader.resolve(entry, "configurations", where);
    mergeConfig(custom, readConfigurationFile(path, loader, display(path)), display(path));
  }
  const own = defaultConfig();
  mergeConfig(own, custom, where);
  return own;
}

/** One `configurations:` file: a map of the lists above (nameReference entries name their target kind). */
export function readConfigurationFile(path: string, loader: Loader, display: string): TransformerConfig {
  const docs = parseYamlDocuments(loader.read(path), display);
  const config = emptyConfig();
  for (const doc of docs) {
    const value = doc.value ?? {};
    if (typeof value !== "object" || Array.isArray(value))
      throw new KustomizeError(`${display}: a transformer configuration is a map of field spec lists`);
    for (const [key, entries] of Object.entries(value as Record<string, unknown>)) {
      if ((SPEC_LISTS as readonly string[]).includes(key)) {
        mergeConfig(config, { ...emptyConfig(), [key]: fieldSpecs(entries, `${display}: ${key}`) }, display);
      } else if (key === "nameReference") {
        if (!Array.isArray(entries)) throw new KustomizeError(`${display}: nameReference must be a list`);
        const referrals = entries.map((e: { kind?: unknown; fieldSpecs?: unknown }, i) => {
          if (!e || typeof e.kind !== "string")
            throw new KustomizeError(`${display}: nameReference[${i}] needs the kind it refers to`);
          return {
            ...(e as { kind: string; group?: string; version?: string }),
            fieldSpecs: fieldSpecs(e.fieldSpecs, `${display}: nameReference[${i}].fieldSpecs`),
          };
        });
        mergeConfig(config, { ...emptyConfig(), nameReference: referralsOf(referrals) }, display);
      } else throw new KustomizeError(`${display}: unknown field "${key}" in a transformer configuration`);
    }
  }
  return config;
}
