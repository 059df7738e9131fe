// Flux's behaviour for a path without a kustomization file (fluxcd/pkg kustomize_generator.go
// scanManifests): every .yaml and .yml file below it — dot-files too; the source's ignore rules already
// left out what should not be there — is decoded as Kubernetes objects, and directories with their own
// kustomization are taken whole. A file that is not Kubernetes objects (a Helm values file, a list, a
// syntax error, an alias bomb) fails the build naming it, as Flux's does; .json files are not read.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { confinedRealpath } from "../util/confined-path.js";
import { findKustomizationFile, type KustomizationFile } from "./kustomization-file.js";
import { KustomizeError } from "./errors.js";
import { parseYamlDocuments, YamlSyntaxError } from "./yaml/parse.js";

/** Flux's rf.SliceFromBytes check: every document empty or an object with apiVersion and kind. */
function checkManifest(path: string, root: string): boolean {
  const file = relative(root, path);
  let docs;
  try {
    docs = parseYamlDocuments(readFileSync(path, "utf8"), file);
  } catch (err) {
    if (err instanceof YamlSyntaxError)
      throw new KustomizeError(`failed to decode Kubernetes YAML from ${err.message}`);
    throw err;
  }
  const objects = docs.filter((d) => d.value !== null);
  for (const d of objects) {
    const v = d.value;
    if (typeof v !== "object" || v === null || Array.isArray(v) || !("apiVersion" in v) || !("kind" in v))
      throw new KustomizeError(
        `failed to decode Kubernetes YAML from ${file}: missing Resource metadata (not a Kubernetes object: move it out of the path, or ignore it in the source)`,
      );
  }
  return objects.length > 0;
}

/**
 * The kustomization of a plain directory. Confined to `confineTo`, a link leading out of it is listed
 * unread, so that the build refuses it by name instead of reading it here or skipping it silently.
 */
export function generateKustomization(root: string, confineTo?: string): KustomizationFile {
  const resources: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(dir, entry.name);
      if (confineTo && entry.isSymbolicLink() && "outside" in confinedRealpath(full, confineTo)) {
        resources.push(relative(root, full));
        continue;
      }
      if (entry.isDirectory()) {
        if (findKustomizationFile(full)) resources.push(relative(root, full));
        else walk(full);
      } else if (/\.ya?ml$/.test(entry.name) && checkManifest(full, root)) resources.push(relative(root, full));
    }
  };
  walk(root);
  return { apiVersion: "kustomize.config.k8s.io/v1beta1", kind: "Kustomization", resources };
}
