// Building what a Kustomization applies, as kustomize-controller does: extend the
// kustomization at spec.path with the spec's fields (or generate one from the plain manifests), build
// natively, then substitute postBuild variables.
import { FlotillaError } from "../../util/errors.js";
import { existsSync, readFileSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import type { KustomizationSpec } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import { buildResources } from "../../kustomize/build.js";
import { generateKustomization } from "../../kustomize/generate-kustomization.js";
import {
  findKustomizationFile,
  type KustomizationFile,
  parseKustomization,
} from "../../kustomize/kustomization-file.js";
import { substituteObjects } from "./substitute.js";

export class PathNotFoundError extends FlotillaError {
  override name = "PathNotFoundError";
}

const asPatchText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** The kustomization Flux would generate at `dir` for this spec (kept in memory). */
export function extendKustomization(dir: string, spec: KustomizationSpec): KustomizationFile {
  const file = findKustomizationFile(dir);
  const k: KustomizationFile = file
    ? parseKustomization(readFileSync(file, "utf8"), relative(dir, file))
    : generateKustomization(dir);
  if (spec.targetNamespace) k.namespace = spec.targetNamespace;
  if (spec.namePrefix) k.namePrefix = spec.namePrefix + (k.namePrefix ?? "");
  if (spec.nameSuffix) k.nameSuffix = (k.nameSuffix ?? "") + spec.nameSuffix;
  const patches = [
    ...(spec.patches ?? []).map((p) => ({ patch: p.patch, ...(p.target ? { target: p.target } : {}) })),
    ...(spec.patchesStrategicMerge ?? []).map((p) => ({ patch: asPatchText(p) })),
    ...(spec.patchesJson6902 ?? []).map((p) => ({ patch: asPatchText(p.patch), target: p.target })),
  ];
  if (patches.length) k.patches = [...(k.patches ?? []), ...patches];
  if (spec.images?.length) k.images = [...(k.images ?? []), ...spec.images];
  // ignoreMissingComponents drops the spec's components that are not in the source, as Flux does.
  const components = (spec.components ?? []).filter(
    (c) => !spec.ignoreMissingComponents || existsSync(resolve(dir, c)),
  );
  if (components.length) k.components = [...(k.components ?? []), ...components];
  if (spec.commonMetadata?.labels)
    k.labels = [...(k.labels ?? []), { pairs: spec.commonMetadata.labels, includeSelectors: false }];
  if (spec.commonMetadata?.annotations)
    k.commonAnnotations = { ...k.commonAnnotations, ...spec.commonMetadata.annotations };
  return k;
}

/**
 * Builds spec.path of an unpacked artifact without copying or changing it: the artifact directory is
 * shared by every Kustomization of that revision (copying a 4000-file repository per reconcile
 * dominated a 1000-Kustomization run), so the extended kustomization is handed to the build in memory.
 */
export function buildKustomizationObjects(
  artifactDir: string,
  spec: KustomizationSpec,
  vars: Record<string, string>,
  strict = false,
): KubeObject[] {
  const root = resolve(artifactDir);
  const path = spec.path ?? "./";
  const dir = resolve(root, path);
  if ((dir !== root && !dir.startsWith(root + sep)) || !existsSync(dir)) {
    throw new PathNotFoundError(`kustomization path not found: stat ${path}: no such file or directory`);
  }
  const kustomization = extendKustomization(dir, spec);
  const objects = buildResources(dir, { kustomization }).map((r) => r.obj as unknown as KubeObject);
  // Substitution runs only for a Kustomization that asks for it (spec.postBuild), as in Flux; with
  // substituteStrategy Always even when no variable is defined (so `${x:=default}` still resolves).
  if (!spec.postBuild) return objects;
  return substituteObjects(objects, vars, { strict, always: spec.postBuild.substituteStrategy === "Always" });
}
