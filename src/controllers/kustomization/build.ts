// Building what a Kustomization applies, as kustomize-controller does: extend the
// kustomization at spec.path with the spec's fields (or generate one from the plain manifests), build
// natively, then substitute postBuild variables.
import { FlotillaError } from "../../util/errors.js";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { KustomizationSpec } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import { buildResources } from "../../kustomize/build.js";
import { confinedRealpath } from "../../util/confined-path.js";
import { LoadRestrictionError } from "../../kustomize/errors.js";
import { confinedPath } from "../../kustomize/loader.js";
import { generateKustomization } from "../../kustomize/generate-kustomization.js";
import {
  findKustomizationFile,
  type KustomizationFile,
  parseKustomization,
} from "../../kustomize/kustomization-file.js";
import { substituteObjects } from "./substitute.js";
import type { SopsKeys } from "../../binaries/sops/index.js";
import type { Redactor } from "../../ssa/index.js";
import { decryptResources, decryptSources, encryptedResources } from "./sops-decrypt.js";
import { encryptedSources } from "./sops-sources.js";

export class PathNotFoundError extends FlotillaError {
  override name = "PathNotFoundError";
}

const asPatchText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * The kustomization Flux would generate at `dir` for this spec (kept in memory). `root` is the
 * artifact the build is confined to: a kustomization file that is a link out of it is refused unread.
 */
export function extendKustomization(dir: string, spec: KustomizationSpec, root: string): KustomizationFile {
  const file = findKustomizationFile(dir);
  if (file) confinedPath(file, root, `kustomization file ${relative(root, file)}`);
  const k: KustomizationFile = file
    ? parseKustomization(readFileSync(file, "utf8"), relative(dir, file))
    : generateKustomization(dir, root);
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
  // Flux's generator sets the kustomization's buildMetadata from the spec's.
  if (spec.buildMetadata?.length) k.buildMetadata = [...spec.buildMetadata];
  // ignoreMissingComponents drops the spec's components that are not in the source, as Flux does. A path
  // leading out of the artifact is kept, so the confined build refuses it: dropping it would tell a tenant
  // whether something exists outside its artifact.
  const outside = (p: string) => relative(root, p).startsWith("..");
  const components = (spec.components ?? []).filter((c) => {
    const p = resolve(dir, c);
    return !spec.ignoreMissingComponents || outside(p) || existsSync(p);
  });
  if (components.length) k.components = [...(k.components ?? []), ...components];
  if (spec.commonMetadata?.labels)
    k.labels = [...(k.labels ?? []), { pairs: spec.commonMetadata.labels, includeSelectors: false }];
  if (spec.commonMetadata?.annotations)
    k.commonAnnotations = { ...k.commonAnnotations, ...spec.commonMetadata.annotations };
  return k;
}

/** The artifact root, the directory of spec.path and its extended kustomization, each confined. */
function buildTarget(artifactDir: string, spec: KustomizationSpec) {
  const root = realpathSync.native(artifactDir);
  const path = spec.path ?? "./";
  const found = confinedRealpath(resolve(root, path), root);
  // spec.path is confined like every path of the build: a link out of the artifact is refused.
  if ("outside" in found)
    throw new LoadRestrictionError(
      `spec.path '${path}' leads outside the source artifact: security; file '${found.outside}' is not in or below '${root}'; set spec.path to a directory inside the repository`,
    );
  if ("missing" in found) {
    throw new PathNotFoundError(`kustomization path not found: stat ${path}: no such file or directory`);
  }
  const dir = found.real;
  return { root, dir, kustomization: extendKustomization(dir, spec, root) };
}

// Substitution runs only for a Kustomization that asks for it (spec.postBuild), as in Flux; with
// substituteStrategy Always even when no variable is defined (so `${x:=default}` still resolves).
const substituted = (objects: KubeObject[], spec: KustomizationSpec, vars: Record<string, string>, strict: boolean) =>
  spec.postBuild
    ? substituteObjects(objects, vars, { strict, always: spec.postBuild.substituteStrategy === "Always" })
    : objects;

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
  const { root, dir, kustomization } = buildTarget(artifactDir, spec);
  const objects = buildResources(dir, { kustomization, confineTo: root }).map((r) => r.obj as unknown as KubeObject);
  return substituted(objects, spec, vars, strict);
}

/**
 * buildKustomizationObjects with spec.decryption, in kustomize-controller's order: the encrypted
 * generator and patch sources decrypted (held in memory for the build), the build, the encrypted
 * objects decrypted, then substitution. Decrypted Secret values go to `secrets`.
 */
export async function buildKustomizationObjectsDecrypted(
  artifactDir: string,
  spec: KustomizationSpec,
  vars: Record<string, string>,
  strict: boolean,
  keys: SopsKeys,
  secrets: Redactor,
): Promise<KubeObject[]> {
  const { root, dir, kustomization } = buildTarget(artifactDir, spec);
  const plaintext = await decryptSources(encryptedSources(dir, kustomization, root), keys);
  const resources = buildResources(dir, { kustomization, confineTo: root, plaintext });
  await decryptResources(resources, keys, root, secrets, dir);
  const objects = resources.map((r) => r.obj as unknown as KubeObject);
  secrets.addObjects(objects);
  return substituted(objects, spec, vars, strict);
}

/**
 * The SOPS-encrypted inputs of a build, named as decryption failures name them: the generator and
 * patch sources first, else the built objects. `flotilla build|diff` asks for a key when there are some.
 */
export function encryptedInputs(artifactDir: string, spec: KustomizationSpec): string[] {
  const { root, dir, kustomization } = buildTarget(artifactDir, spec);
  const sources = encryptedSources(dir, kustomization, root).map((s) => s.display);
  if (sources.length) return sources;
  return encryptedResources(buildResources(dir, { kustomization, confineTo: root }), root, dir);
}
