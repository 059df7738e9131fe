// Building one kustomization directory into a list of resources: its resources (files and nested
// kustomizations), its configuration, generators, components, then its transformers and vars — recursively, in
// kustomize's order.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { generateKustomization } from "./generate-kustomization.js";
import { KustomizeError } from "./errors.js";
import { findKustomizationFile, type KustomizationFile, parseKustomization } from "./kustomization-file.js";
import { confinedPath, type Loader } from "./loader.js";
import { type BuildOrigin, kindOf, type Resource } from "./resource.js";
import { builtinOrigin, recordTransformation } from "./build-metadata.js";
import { ResMap, resourcesFromDocuments } from "./res-map.js";
import { referralsFromCrdFile } from "./crds.js";
import { runGenerators } from "./generators/run.js";
import { type HelmOptions, runHelmCharts } from "./helm/inflate.js";
import type { Referral } from "./transformers/name-reference-table.js";
import { ownConfig } from "./transformers/config.js";
import { readOpenApiField } from "./patches/custom-schema.js";
import { useSchema } from "./patches/schema.js";
import { runPlugins } from "./plugins/run.js";
import { runTransformers } from "./transformers/run.js";
import { mergeVars } from "./transformers/vars.js";
import { parseFileCached } from "./parse-cache.js";

export interface BuildContext {
  /** Directory the user asked to build, for readable paths in messages. */
  top: string;
  /** Name references declared by `crds:` files anywhere in the build. */
  extraReferrals?: Referral[];
  /** Build a directory without kustomization file from all its manifests (Flux's behaviour). */
  generateMissing?: boolean;
  /** The top directory's kustomization, given in memory instead of read from its file. */
  topKustomization?: KustomizationFile;
  /** helmCharts are rendered only when set (kustomize's --enable-helm). */
  helm?: HelmOptions;
  /** The artifact root (a real path) every file must resolve inside, when the build is confined. */
  confineTo?: string;
  /** Set once a kustomization's `openapi:` chose the schema: the first one met wins, as in kustomize. */
  schemaChosen?: boolean;
  /** Whether an object has been read yet (decides how kyaml loads a custom schema, patches/schema.ts). */
  objectsRead?: boolean;
  /** Track where objects come from and what transforms them (the top kustomization has buildMetadata). */
  trackOrigin?: boolean;
}

function readResourceFile(path: string, loader: Loader, display: string, ctx: BuildContext): Resource[] {
  ctx.objectsRead = true;
  const resources = resourcesFromDocuments(
    parseFileCached(path, () => loader.read(path), display, { printedByKyaml: true }),
    display,
  );
  if (ctx.trackOrigin) for (const r of resources) r.buildOrigin = { path: display };
  return resources;
}

/** Objects added since `before` that have no origin yet get `origin` (kustomize's AddOriginAnnotation). */
function originOfNew(resmap: ResMap, before: Set<Resource>, origin: (r: Resource) => BuildOrigin | undefined): void {
  for (const r of resmap.list) if (!before.has(r) && !r.buildOrigin) r.buildOrigin = origin(r);
}

/** kustomize's Kustomization.IsEmpty: nothing but apiVersion and kind (or nothing at all) is an error. */
function refuseEmpty(k: KustomizationFile, display: string): KustomizationFile {
  const fields = Object.entries(k).filter(
    ([key, v]) => key !== "apiVersion" && key !== "kind" && v !== null && v !== "",
  );
  if (!fields.length) throw new KustomizeError(`${display}: kustomization.yaml is empty`);
  return k;
}

export function loadKustomization(
  dir: string,
  ctx: BuildContext,
): { file: string; display: string; k: KustomizationFile } {
  if (dir === ctx.top && ctx.topKustomization) {
    return { file: join(dir, "kustomization.yaml"), display: "kustomization.yaml", k: ctx.topKustomization };
  }
  const file = findKustomizationFile(dir);
  if (!file && ctx.generateMissing && dir === ctx.top) {
    return {
      file: join(dir, "kustomization.yaml"),
      display: "(generated kustomization)",
      k: generateKustomization(dir, ctx.confineTo),
    };
  }
  if (!file) {
    throw new KustomizeError(
      `unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '${dir}'`,
    );
  }
  const display = relative(ctx.top, file) || file;
  // A kustomization file that is a link out of the artifact is refused before it is read.
  if (ctx.confineTo) confinedPath(file, ctx.confineTo, `kustomization file ${display}`);
  return {
    file,
    display,
    // kustomize reads its own file with sigs.k8s.io/yaml, where a repeated key is the later one's.
    k: refuseEmpty(
      parseKustomization(
        parseFileCached(file, () => readFileSync(file, "utf8"), display, { lastKeyWins: true }),
        display,
      ),
      display,
    ),
  };
}

/**
 * Builds the kustomization in `loader.root` on top of `base` (components build on their parent's
 * resources). `parentNamespace` is the nearest parent's namespace, which charts inherit.
 */
export function accumulate(loader: Loader, ctx: BuildContext, base?: ResMap, parentNamespace?: string): ResMap {
  const { display, k } = loadKustomization(loader.root, ctx);
  const namespace = k.namespace || parentNamespace;
  const resmap = base ?? new ResMap();
  const rel = (p: string) => relative(ctx.top, p) || p;
  if (!ctx.schemaChosen) {
    const schema = readOpenApiField(k.openapi, loader, display, rel);
    if (schema !== undefined) {
      ctx.schemaChosen = true;
      useSchema(schema === "builtin" ? undefined : schema, ctx.objectsRead);
    }
  }

  for (const [field, entries] of [
    ["resources", k.resources],
    ["bases", k.bases],
  ] as const) {
    for (const entry of entries ?? []) {
      const path = loader.resolve(entry, field, display);
      if (loader.isDirectory(path)) {
        if (loadKustomization(path, ctx).k.kind === "Component") {
          throw new KustomizeError(
            `${display}: ${field} entry "${entry}" is a Component; list it under components, not ${field}`,
          );
        }
        resmap.addAll(
          accumulate(loader.child(path, `${display}: ${field} entry "${entry}"`), ctx, undefined, namespace),
          display,
        );
      } else for (const r of readResourceFile(path, loader, rel(path), ctx)) resmap.add(r, display);
    }
  }
  // After the resources, as kustomize: an included kustomization's configuration is merged first.
  resmap.mergeConfig(ownConfig(k.configurations, loader, rel, display), display);
  for (const entry of k.crds ?? []) {
    const path = loader.resolve(entry, "crds", display);
    (ctx.extraReferrals ??= []).push(...referralsFromCrdFile(path, loader, rel(path)));
  }
  const buildDir = (path: string, entry: string) =>
    accumulate(loader.child(path, `${display}: plugin configurations "${entry}"`), ctx, undefined, namespace);
  const track = ctx.trackOrigin;
  let before = new Set(track ? resmap.list : []);
  runGenerators(k, resmap, loader, display);
  if (track)
    originOfNew(resmap, before, (r) =>
      builtinOrigin(display, kindOf(r) === "Secret" ? "SecretGenerator" : "ConfigMapGenerator"),
    );
  before = new Set(track ? resmap.list : []);
  runHelmCharts(k, resmap, loader, display, ctx.helm, namespace);
  if (track) originOfNew(resmap, before, () => builtinOrigin(display, "HelmChartInflationGenerator"));
  const origins = track ? { display, rel, ofNew: originOfNew } : undefined;
  runPlugins("generators", k.generators, resmap, loader, display, buildDir, origins);
  // Components come after the generators, as in kustomize: a component may patch what they made.
  for (const entry of k.components ?? []) {
    const path = loader.resolve(entry, "components", display);
    if (!loader.isDirectory(path))
      throw new KustomizeError(`${display}: components entry "${entry}" must be a directory with a kustomization`);
    const component = loadKustomization(path, ctx);
    if (component.k.kind !== "Component") {
      throw new KustomizeError(
        `${component.display}: a component must have kind: Component (apiVersion kustomize.config.k8s.io/v1alpha1)`,
      );
    }
    accumulate(loader.child(path, `${display}: components entry "${entry}"`), ctx, resmap, namespace);
  }
  runTransformers(
    k,
    resmap,
    loader,
    display,
    track ? (kind) => recordTransformation(resmap.list, builtinOrigin(display, kind)) : undefined,
  );
  runPlugins("transformers", k.transformers, resmap, loader, display, buildDir, origins);
  mergeVars(resmap, k.vars, display);
  return resmap;
}
