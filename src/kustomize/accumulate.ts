// Building one kustomization directory into a list of resources: its resources (files and nested
// kustomizations), components, generators, then its transformers — recursively, as kustomize does.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { generateKustomization } from "./generate-kustomization.js";
import { KustomizeError } from "./errors.js";
import { findKustomizationFile, type Kustomization, parseKustomization } from "./kustomization-file.js";
import type { Loader } from "./loader.js";
import { describeOrigin, identity, type JsonObject, type Origin, type Resource, resId } from "./resource.js";
import { referralsFromCrdFile } from "./crds.js";
import { runGenerators } from "./generators/run.js";
import { type HelmOptions, runHelmCharts } from "./helm/inflate.js";
import type { Referral } from "./transformers/name-reference-table.js";
import { runTransformers } from "./transformers/run.js";
import { parseFileCached } from "./parse-cache.js";
import type { ParsedDocument } from "./yaml/parse.js";

export interface BuildContext {
  /** Directory the user asked to build, for readable paths in messages. */
  top: string;
  /** Name references declared by `crds:` files anywhere in the build. */
  extraReferrals?: Referral[];
  /** Build a directory without kustomization file from all its manifests (Flux's behaviour). */
  generateMissing?: boolean;
  /** The top directory's kustomization, given in memory instead of read from its file. */
  topKustomization?: Kustomization;
  /** helmCharts are rendered only when set (kustomize's --enable-helm). */
  helm?: HelmOptions;
}

/** Where the two objects of one id come from, and what to do about it. */
function duplicateHint(first: Origin, second: Origin): string {
  if (first.file !== second.file)
    return `it is defined twice, in ${describeOrigin(first)} and ${describeOrigin(second)}; remove one of them`;
  // One document met twice: a file listed twice, reached through two bases (a diamond), or a List repeating an item.
  if (first.index === second.index)
    return `${describeOrigin(second)} is met twice: its file is listed twice or reached through two bases, or it is a List holding the object twice`;
  return `it is defined twice, in ${second.file} (documents ${first.index + 1} and ${second.index + 1}); remove one of them`;
}

/** An ordered set of resources that refuses two objects with the same id. */
export class ResMap {
  readonly list: Resource[] = [];

  add(r: Resource, kustomizationFile: string): void {
    const id = identity(r);
    const existing = this.list.find((x) => identity(x) === id);
    if (existing) {
      throw new KustomizeError(
        `${kustomizationFile}: may not add resource with an already registered id: ${resId(r)} — ${duplicateHint(existing.origin, r.origin)}`,
      );
    }
    this.list.push(r);
  }

  addAll(other: ResMap, kustomizationFile: string): void {
    for (const r of other.list) this.add(r, kustomizationFile);
  }
}

export function readResourceFile(path: string, loader: Loader, display: string): Resource[] {
  return resourcesFromDocuments(
    parseFileCached(path, () => loader.read(path), display),
    display,
  );
}

/** The objects of parsed YAML documents (`kind: List` documents give their items), each checked. */
export function resourcesFromDocuments(docs: ParsedDocument[], display: string): Resource[] {
  const out: Resource[] = [];
  for (const doc of docs) {
    const v = doc.value;
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      throw new KustomizeError(
        `${display} (document ${doc.index + 1}): expected a Kubernetes object, got ${Array.isArray(v) ? "a list" : typeof v}`,
      );
    }
    // `kind: List` documents carry their objects in `items`.
    const items =
      typeof v.kind === "string" && v.kind.endsWith("List") && Array.isArray(v.items) ? (v.items as JsonObject[]) : [v];
    for (const obj of items) {
      if (!obj || typeof obj !== "object" || typeof obj.kind !== "string" || typeof obj.apiVersion !== "string") {
        throw new KustomizeError(`${display} (document ${doc.index + 1}): missing apiVersion or kind`);
      }
      const metadata = obj.metadata as JsonObject | undefined;
      if (!metadata || typeof metadata.name !== "string" || metadata.name === "") {
        throw new KustomizeError(`${display} (document ${doc.index + 1}): missing metadata.name in ${obj.kind} object`);
      }
      out.push({ obj: obj as JsonObject, origin: { file: display, index: doc.index }, previous: [] });
    }
  }
  return out;
}

export function loadKustomization(dir: string, ctx: BuildContext): { file: string; display: string; k: Kustomization } {
  if (dir === ctx.top && ctx.topKustomization) {
    return { file: join(dir, "kustomization.yaml"), display: "kustomization.yaml", k: ctx.topKustomization };
  }
  const file = findKustomizationFile(dir);
  if (!file && ctx.generateMissing && dir === ctx.top) {
    return {
      file: join(dir, "kustomization.yaml"),
      display: "(generated kustomization)",
      k: generateKustomization(dir),
    };
  }
  if (!file) {
    throw new KustomizeError(
      `unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '${dir}'`,
    );
  }
  const display = relative(ctx.top, file) || file;
  return {
    file,
    display,
    k: parseKustomization(
      parseFileCached(file, () => readFileSync(file, "utf8"), display),
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
      } else for (const r of readResourceFile(path, loader, rel(path))) resmap.add(r, display);
    }
  }
  for (const entry of k.crds ?? []) {
    const path = loader.resolve(entry, "crds", display);
    (ctx.extraReferrals ??= []).push(...referralsFromCrdFile(path, loader, rel(path)));
  }
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
  runGenerators(k, resmap, loader, display);
  runHelmCharts(k, resmap, loader, display, ctx.helm, namespace);
  runTransformers(k, resmap, loader, display);
  return resmap;
}
