// kustomize's builtin plugins, configured by objects of `apiVersion: builtin` listed under
// `generators:` and `transformers:` — each runs the same code as the kustomization field it stands
// for, with the field specs its configuration gives. Plugins that run programs (exec, Go, container
// functions) are never run: they are refused by name, as are the few builtins flotilla lacks.
import { KustomizeError, UnsupportedFieldError } from "../errors.js";
import { runGenerators } from "../generators/run.js";
import type { GeneratorArgs, Image, KustomizationFile, Patch, Replica } from "../kustomization-file.js";
import type { Loader } from "../loader.js";
import { transformPatches, transformPatchesStrategicMerge } from "../patches/transform.js";
import type { ResMap } from "../res-map.js";
import { type JsonObject, kindOf, nameOf, type Resource, resId } from "../resource.js";
import type { FieldSpec } from "../transformers/field-spec.js";
import { transformImages } from "../transformers/images.js";
import { setPairs } from "../transformers/labels.js";
import { transformNamespace } from "../transformers/namespace.js";
import { affix } from "../transformers/prefix-suffix.js";
import { transformReplacements } from "../transformers/replacements.js";
import { transformReplicas } from "../transformers/replicas.js";
import type { Json } from "../yaml/emit.js";

type Run = (c: JsonObject, resmap: ResMap, loader: Loader, where: string) => void;

const specs = (c: JsonObject): FieldSpec[] => (c.fieldSpecs ?? []) as unknown as FieldSpec[];
const strings = (v: Json | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries((v ?? {}) as JsonObject).map(([k, x]) => [k, String(x)]));

function generatorArgs(c: JsonObject): GeneratorArgs {
  const { apiVersion: _a, kind: _k, metadata, ...args } = c;
  const m = (metadata ?? {}) as JsonObject;
  const out = args as unknown as GeneratorArgs;
  // kustomize: the generated object is named after the config unless it says otherwise.
  if (!out.name) out.name = String(m.name ?? "");
  if (!out.namespace && typeof m.namespace === "string") out.namespace = m.namespace;
  return out;
}

const GENERATOR_ARGS = ["name", "namespace", "behavior", "literals", "files", "envs", "env", "options"];

/** Each builtin kind: the fields its configuration may hold, and what it does. */
const BUILTINS: Record<string, { fields: string[]; generator?: boolean; run: Run }> = {
  LabelTransformer: { fields: ["labels", "fieldSpecs"], run: (c, r) => setPairs(r, strings(c.labels), specs(c)) },
  AnnotationsTransformer: {
    fields: ["annotations", "fieldSpecs"],
    run: (c, r) => setPairs(r, strings(c.annotations), specs(c)),
  },
  PrefixTransformer: {
    fields: ["prefix", "fieldSpecs"],
    run: (c, r) => affix(r, String(c.prefix ?? ""), specs(c), "prefixes"),
  },
  SuffixTransformer: {
    fields: ["suffix", "fieldSpecs"],
    run: (c, r) => affix(r, String(c.suffix ?? ""), specs(c), "suffixes"),
  },
  PrefixSuffixTransformer: {
    fields: ["prefix", "suffix", "fieldSpecs"],
    run: (c, r) => {
      affix(r, String(c.prefix ?? ""), specs(c), "prefixes");
      affix(r, String(c.suffix ?? ""), specs(c), "suffixes");
    },
  },
  ImageTagTransformer: {
    fields: ["imageTag", "fieldSpecs"],
    run: (c, r) => transformImages(r, [c.imageTag as unknown as Image], specs(c)),
  },
  NamespaceTransformer: {
    fields: ["fieldSpecs", "unsetOnly", "setRoleBindingSubjects"],
    run: (c, r, _l, where) =>
      transformNamespace(r, String(((c.metadata ?? {}) as JsonObject).namespace ?? ""), where, specs(c)),
  },
  ReplicaCountTransformer: {
    fields: ["replica", "fieldSpecs"],
    run: (c, r, _l, where) => transformReplicas(r, [c.replica as unknown as Replica], where, specs(c)),
  },
  PatchTransformer: {
    fields: ["path", "patch", "target", "options"],
    run: (c, r, l, where) => transformPatches(r, [c as unknown as Patch], l, where),
  },
  PatchJson6902Transformer: {
    fields: ["target", "path", "jsonOp"],
    run: (c, r, l, where) =>
      transformPatches(
        r,
        [{ target: c.target, path: c.path, patch: c.jsonOp } as unknown as Patch],
        l,
        where,
        "patchesJson6902",
      ),
  },
  PatchStrategicMergeTransformer: {
    fields: ["paths", "patches"],
    run: (c, r, l, where) => {
      transformPatchesStrategicMerge(r, (c.paths ?? []) as string[], l, where);
      if (typeof c.patches === "string") transformPatchesStrategicMerge(r, [c.patches], l, where);
    },
  },
  ReplacementTransformer: {
    fields: ["replacements"],
    run: (c, r, l, where) => transformReplacements(r, (c.replacements ?? []) as Json[], l, where),
  },
  ConfigMapGenerator: {
    fields: GENERATOR_ARGS,
    generator: true,
    run: (c, r, l, where) =>
      runGenerators({ configMapGenerator: [generatorArgs(c)] } as KustomizationFile, r, l, where),
  },
  IAMPolicyGenerator: {
    fields: ["cloud", "kubernetesService", "serviceAccount"],
    generator: true,
    run: (c, r, _l, where) => generateIamPolicy(c, r, where),
  },
  SecretGenerator: {
    fields: [...GENERATOR_ARGS, "type"],
    generator: true,
    run: (c, r, l, where) => runGenerators({ secretGenerator: [generatorArgs(c)] } as KustomizationFile, r, l, where),
  },
};

/** kustomize's IAMPolicyGenerator: a ServiceAccount bound to a GKE service account (Workload Identity). */
function generateIamPolicy(c: JsonObject, resmap: ResMap, where: string): void {
  if (c.cloud !== "gke")
    throw new KustomizeError(`${where}: cloud provider ${String(c.cloud ?? "")} not supported yet`);
  const ks = (c.kubernetesService ?? {}) as JsonObject;
  const sa = (c.serviceAccount ?? {}) as JsonObject;
  const metadata: JsonObject = {
    annotations: {
      "iam.gke.io/gcp-service-account": `${String(sa.name ?? "")}@${String(sa.projectId ?? "")}.iam.gserviceaccount.com`,
    },
    name: String(ks.name ?? ""),
  };
  if (ks.namespace) metadata.namespace = String(ks.namespace);
  resmap.add(
    { obj: { apiVersion: "v1", kind: "ServiceAccount", metadata }, origin: { file: where, index: 0 }, previous: [] },
    where,
  );
}

/** Builtins kustomize has that flotilla does not run, with what to do instead. */
const NOT_BUILTIN_HERE: Record<string, string> = {
  HashTransformer: "content hashes are added to generated objects already",
  ValueAddTransformer: "use a ReplacementTransformer or the replacements field",
  HelmChartInflationGenerator: "use the helmCharts field (with --enable-helm)",
};

/** Runs one plugin configuration listed under `generators:` (generator) or `transformers:`. */
export function runPlugin(config: Resource, resmap: ResMap, loader: Loader, where: string, field: string): void {
  const c = config.obj;
  const id = `${kindOf(config)}/${nameOf(config)}`;
  if (c.apiVersion !== "builtin")
    throw new UnsupportedFieldError(
      `${where}: ${field} entry ${resId(config)} is an external plugin (exec, Go or container function); flotilla never runs plugin programs: use the builtin kinds (apiVersion: builtin) or commit what it generates`,
    );
  const kind = kindOf(config);
  if (NOT_BUILTIN_HERE[kind])
    throw new UnsupportedFieldError(
      `${where}: ${field} entry ${id}: the builtin ${kind} is not supported by flotilla's kustomize: ${NOT_BUILTIN_HERE[kind]}`,
    );
  const builtin = BUILTINS[kind];
  if (!builtin)
    throw new KustomizeError(`${where}: ${field} entry ${id}: unable to load builtin ${kind}.builtin.[noGrp]`);
  if (field === "generators" && !builtin.generator)
    throw new KustomizeError(`${where}: ${field} entry ${id}: plugin ${kind} is not a generator`);
  if (field === "transformers" && builtin.generator)
    throw new KustomizeError(`${where}: ${field} entry ${id}: plugin ${kind} is not a transformer`);
  for (const key of Object.keys(c)) {
    if (key === "apiVersion" || key === "kind" || key === "metadata") continue;
    if (!builtin.fields.includes(key))
      throw new UnsupportedFieldError(
        `${where}: ${field} entry ${id}: unknown field "${key}" in a ${kind} configuration`,
      );
  }
  if (kind === "NamespaceTransformer") {
    for (const key of ["unsetOnly", "setRoleBindingSubjects"])
      if (c[key] !== undefined)
        throw new UnsupportedFieldError(
          `${where}: ${field} entry ${id}: field "${key}" is not supported by flotilla's kustomize`,
        );
  }
  builtin.run(c, resmap, loader, `${where}: ${field} entry ${id}`);
}
