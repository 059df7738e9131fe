// kustomize-controller's DecryptSources: before the build, the files a kustomization's
// secretGenerator reads (`files`, `envs`) and its `patches` paths, in the kustomization at spec.path
// and every local resource or component directory below it, are decrypted when sops' marker is in
// them. Flux rewrites them on disk; flotilla hands the plaintext to the build in memory (the build's
// loader reads it instead of the file), so it never lands on disk and the shared artifact stays intact.
import { existsSync, lstatSync, readFileSync, statSync } from "node:fs";
import { relative, resolve } from "node:path";
import {
  findKustomizationFile,
  type KustomizationFile,
  parseKustomization,
} from "../../kustomize/kustomization-file.js";
import { confinedRealpath } from "../../util/confined-path.js";
import { formatForPath, hasMarker } from "./sops-formats.js";
import type { SopsFormat } from "../../binaries/sops/index.js";

/** Flux's limit on an encrypted file (maxEncryptedFileSize). */
export const MAX_ENCRYPTED_FILE_BYTES = 5 << 20;

export interface EncryptedSource {
  /** Real path inside the artifact: the key the build's loader looks plaintext up by. */
  path: string;
  /** The path relative to the artifact root, for messages. */
  display: string;
  format: SopsFormat;
  data: Buffer;
}

const REMOTE = /^[a-z][a-z0-9+.-]*:\/\/[^/]/i;

/**
 * The encrypted sources of the kustomization `top` at `dir` (already extended with the spec's fields)
 * and the kustomizations it reaches, confined to the artifact `root`. Paths that lead outside the
 * artifact or do not exist are left to the build, which refuses them with its own message.
 */
export function encryptedSources(dir: string, top: KustomizationFile, root: string): EncryptedSource[] {
  const found = new Map<string, EncryptedSource>();
  const visited = new Set<string>();
  const visitFile = (base: string, path: string, format: SopsFormat) => {
    if (REMOTE.test(path)) return;
    const r = confinedRealpath(resolve(base, path), root);
    if (!("real" in r) || found.has(r.real) || !lstatSync(r.real).isFile()) return;
    const display = relative(root, r.real);
    const size = statSync(r.real).size;
    if (size > MAX_ENCRYPTED_FILE_BYTES)
      throw new Error(
        `cannot decrypt ${display}: its size (${size} bytes) exceeds the limit (${MAX_ENCRYPTED_FILE_BYTES})`,
      );
    const data = readFileSync(r.real);
    if (hasMarker(data, format)) found.set(r.real, { path: r.real, display, format, data });
  };
  const visitDir = (d: string, k: KustomizationFile | undefined) => {
    if (visited.has(d)) return;
    visited.add(d);
    if (!k) {
      const file = findKustomizationFile(d);
      if (!file || !("real" in confinedRealpath(file, root))) return;
      k = parseKustomization(readFileSync(file, "utf8"), relative(root, file));
    }
    for (const gen of k.secretGenerator ?? []) {
      for (const src of gen.files ?? []) {
        const eq = src.indexOf("=");
        const key = eq >= 0 ? src.slice(0, eq) : src;
        visitFile(d, eq >= 0 ? src.slice(eq + 1) : src, formatForPath(key));
      }
      for (const env of gen.envs ?? []) {
        const f = formatForPath(env);
        visitFile(d, env, f === "binary" ? "dotenv" : f);
      }
    }
    for (const p of k.patches ?? []) if (p.path) visitFile(d, p.path, formatForPath(p.path));
    for (const res of [...(k.resources ?? []), ...(k.components ?? [])]) {
      if (REMOTE.test(res)) continue;
      const r = confinedRealpath(resolve(d, res), root);
      if ("real" in r && existsSync(r.real) && statSync(r.real).isDirectory()) visitDir(r.real, undefined);
    }
  };
  visitDir(dir, top);
  return [...found.values()];
}
