// Flux's behaviour for a path without a kustomization file: build every Kubernetes manifest below it,
// as if a kustomization listed them — directories with their own kustomization are taken whole.
// YAML that is not a Kubernetes object is left out; YAML that cannot be read (a syntax error, an
// alias bomb, nesting past the limit) fails the build naming the file, as Flux's generator does,
// instead of leaving the file out and applying the rest as if it were not there.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { confinedRealpath } from "../util/confined-path.js";
import { findKustomizationFile, type KustomizationFile } from "./kustomization-file.js";
import { KustomizeError } from "./errors.js";
import { parseYamlDocuments, YamlSyntaxError } from "./yaml/parse.js";

function isManifest(path: string, root: string): boolean {
  let docs;
  try {
    docs = parseYamlDocuments(readFileSync(path, "utf8"), relative(root, path));
  } catch (err) {
    // Flux reads .yaml and .yml only; an unreadable .json file stays left out, as before.
    if (err instanceof YamlSyntaxError && /\.ya?ml$/.test(path))
      throw new KustomizeError(`failed to decode Kubernetes YAML from ${err.message}`);
    if (err instanceof YamlSyntaxError) return false;
    throw err;
  }
  return (
    docs.length > 0 &&
    docs.every(
      (d) =>
        d.value !== null &&
        typeof d.value === "object" &&
        !Array.isArray(d.value) &&
        "apiVersion" in d.value &&
        "kind" in d.value,
    )
  );
}

/**
 * The kustomization of a plain directory. Confined to `confineTo`, a link leading out of it is listed
 * unread, so that the build refuses it by name instead of reading it here or skipping it silently.
 */
export function generateKustomization(root: string, confineTo?: string): KustomizationFile {
  const resources: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith(".")) continue;
      const full = join(dir, entry.name);
      if (confineTo && entry.isSymbolicLink() && "outside" in confinedRealpath(full, confineTo)) {
        resources.push(relative(root, full));
        continue;
      }
      if (entry.isDirectory()) {
        if (findKustomizationFile(full)) resources.push(relative(root, full));
        else walk(full);
      } else if (/\.(ya?ml|json)$/.test(entry.name) && isManifest(full, root)) resources.push(relative(root, full));
    }
  };
  walk(root);
  return { apiVersion: "kustomize.config.k8s.io/v1beta1", kind: "Kustomization", resources };
}
