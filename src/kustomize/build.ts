// `kustomize build DIR`, natively: accumulate, then — once, at the top — add content-hash suffixes
// to generated names, rewrite references to renamed objects, sort, and print as kustomize prints.
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { accumulate, type BuildContext, loadKustomization } from "./accumulate.js";
import { hashSuffix } from "./generators/hash.js";
import type { KustomizationFile } from "./kustomization-file.js";
import { KustomizeError } from "./errors.js";
import { Loader } from "./loader.js";
import { nameOf, type Resource } from "./resource.js";
import { rename } from "./transformers/rename.js";
import { legacySort } from "./sort.js";
import { finalize } from "./transformers/finalize.js";
import { applyBuildMetadata, checkBuildMetadata } from "./build-metadata.js";
import { useSchema } from "./patches/schema.js";
import { toYaml } from "./yaml/emit.js";

export interface BuildOptions {
  /** Without a kustomization file, build all manifests below the directory (Flux's behaviour). */
  generateKustomization?: boolean;
  /**
   * Use this kustomization for `dir` instead of its file: Flux extends the kustomization at
   * spec.path with the Kustomization's fields, and a shared read-only artifact stays untouched.
   */
  kustomization?: KustomizationFile;
  /** Render helmCharts with helm (kustomize's --enable-helm); off by default. */
  enableHelm?: boolean;
  /** The helm binary (kustomize's --helm-command); flotilla's pinned helm, else PATH's, by default. */
  helmCommand?: string;
  /** Environment variables helm gets besides its private homes (e.g. proxies for pulls); none by default. */
  helmEnv?: Record<string, string>;
  /** Let helm pull charts that are not vendored under chartHome (network); off by default. */
  helmAllowPull?: boolean;
  /**
   * The source artifact's root: every file and directory the build reads must resolve (links
   * followed) inside it, as Flux builds; the controller sets it. Unset (the CLI), kustomize's rules.
   */
  confineTo?: string;
  /** Files read from memory instead of disk, by real path (decrypted SOPS sources; see Loader). */
  plaintext?: ReadonlyMap<string, Uint8Array>;
}

function addHashes(resources: Resource[]): void {
  for (const r of resources) {
    if (!r.needsHash) continue;
    rename(r, { name: `${nameOf(r)}-${hashSuffix(r.obj)}` });
    r.needsHash = false;
  }
}

export function buildResources(dir: string, options: BuildOptions = {}): Resource[] {
  try {
    return buildWithSchema(dir, options);
  } finally {
    useSchema(undefined); // a custom openapi schema lasts one build
  }
}

function buildWithSchema(dir: string, options: BuildOptions): Resource[] {
  const top = resolve(dir);
  const ctx: BuildContext = {
    top,
    generateMissing: options.generateKustomization,
    topKustomization: options.kustomization,
    confineTo: options.confineTo && realpathSync.native(options.confineTo),
  };
  // buildMetadata and sortOptions are the top kustomization's alone.
  const topK = loadKustomization(top, ctx).k;
  const buildMetadata = checkBuildMetadata(topK.buildMetadata, "kustomization.yaml");
  ctx.trackOrigin = buildMetadata.length > 0;
  if (options.enableHelm)
    ctx.helm = { command: options.helmCommand || undefined, allowPull: options.helmAllowPull, env: options.helmEnv };
  const resmap = accumulate(new Loader(top, undefined, ctx.confineTo, options.plaintext), ctx);
  addHashes(resmap.list);
  // Name references follow the configuration merged from every kustomization, plus the crds: files.
  const config = resmap.transformerConfig;
  const resources = finalize(resmap.list, [...config.nameReference, ...(ctx.extraReferrals ?? [])], {
    vars: resmap.vars,
    varReference: config.varReference,
  });
  const sort = topK.sortOptions;
  if (sort) {
    // kustomize's checks, in its words.
    if (sort.order !== "fifo" && sort.order !== "legacy")
      throw new KustomizeError("the field 'sortOptions.order' must be one of [fifo, legacy]");
    if (sort.order === "fifo" && sort.legacySortOptions)
      throw new KustomizeError(
        "the field 'sortOptions.legacySortOptions' is set but the selected sort order is 'fifo', not 'legacy'",
      );
  }
  const sorted =
    sort?.order === "fifo"
      ? resources
      : legacySort(resources, sort?.legacySortOptions?.orderFirst, sort?.legacySortOptions?.orderLast);
  applyBuildMetadata(sorted, buildMetadata);
  return sorted;
}

/** Exactly what `kustomize build DIR` prints on stdout. */
export async function buildKustomization(dir: string, options: BuildOptions = {}): Promise<string> {
  return buildResources(dir, options)
    .map((r) => toYaml(r.obj))
    .join("---\n");
}
