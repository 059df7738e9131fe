// Decrypting a Kustomization's build with sops, in kustomize-controller's order: the generator and
// patch sources before the build (sops-sources.ts), then every built object that sops encrypted as a
// whole (a `sops` block with a MAC) and every Secret data value carrying sops' marker. Failures name
// the file (and the object) and never carry a value; decrypted Secret values go to the redactor.
import { relative, resolve } from "node:path";
import { sopsDecrypt, type SopsKeys } from "../../binaries/sops/index.js";
import type { Resource } from "../../kustomize/resource.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { Redactor } from "../../ssa/index.js";
import { cloudOnlyRefusal, detectEncryptedFormat, formatForPath, isSopsEncryptedObject } from "./sops-formats.js";
import type { EncryptedSource } from "./sops-sources.js";
import { FlotillaError } from "../../util/errors.js";

export class DecryptionError extends FlotillaError {
  override name = "DecryptionError";
}

/** What a failed decryption asks the user to do (the CLI says "pass --decryption-key" instead). */
export const DECRYPTION_HINT =
  "check that spec.decryption.secretRef holds the age (*.agekey) or OpenPGP (*.asc) key the file was encrypted for";

/** Flux's annotation that leaves an object encrypted. */
const DECRYPT_ANNOTATION = "kustomize.toolkit.fluxcd.io/decrypt";

async function decrypt(data: Uint8Array, keys: SopsKeys, what: string, o: Parameters<typeof sopsDecrypt>[2]) {
  const refused = cloudOnlyRefusal(data, what);
  if (refused) throw new DecryptionError(refused);
  try {
    return await sopsDecrypt(data, keys, o);
  } catch (err) {
    throw new DecryptionError(`failed to decrypt ${what}: ${(err as Error).message}; ${DECRYPTION_HINT}`);
  }
}

/**
 * The plaintext of each encrypted source, by real path, for the build's loader. A source file is
 * decrypted as sops would decrypt it, MAC checked: nothing has changed it since sops wrote it.
 */
export async function decryptSources(sources: EncryptedSource[], keys: SopsKeys): Promise<Map<string, Buffer>> {
  // Side by side: sops' start-up dominates, and sopsDecrypt bounds how many run at once.
  const out = await Promise.all(
    sources.map((s) => decrypt(s.data, keys, s.display, { inputType: s.format, outputType: s.format })),
  );
  return new Map(sources.map((s, i) => [s.path, out[i]!]));
}

/**
 * `Kind/ns/name (from file)`: how a failure names a built object, its file relative to the artifact
 * `root` (an origin is relative to the build's directory `dir`).
 */
export const describeResource = (r: Resource, root: string, dir = root) => {
  const md = (r.obj.metadata ?? {}) as { name?: string; namespace?: string };
  const id = `${String(r.obj.kind)}/${md.namespace ? `${md.namespace}/` : ""}${md.name ?? ""}`;
  const file = r.origin?.file ? relative(root, resolve(dir, r.origin.file)) : "";
  return file && !file.startsWith("..") ? `${id} (from ${file})` : id;
};

const decryptDisabled = (r: Resource) =>
  (r.obj.metadata as { annotations?: Record<string, string> } | undefined)?.annotations?.[
    DECRYPT_ANNOTATION
  ]?.toLowerCase() === "disabled";

/** Secret data values that carry sops' marker (base64 of an encrypted file). */
const encryptedDataKeys = (r: Resource): string[] =>
  r.obj.kind !== "Secret" || !r.obj.data || typeof r.obj.data !== "object"
    ? []
    : Object.entries(r.obj.data as Record<string, unknown>)
        .filter(([, v]) => typeof v === "string" && !!detectEncryptedFormat(Buffer.from(v, "base64")))
        .map(([k]) => k);

/** The built objects decryptResources would decrypt, named as its failures name them. */
export const encryptedResources = (resources: Resource[], root: string, dir = root): string[] =>
  resources
    .filter((r) => !decryptDisabled(r) && (isSopsEncryptedObject(r.obj) || encryptedDataKeys(r).length > 0))
    .map((r) => describeResource(r, root, dir));

/**
 * Decrypts the built resources in place (DecryptResource). The MAC is not checked, as in Flux: the
 * build's transformers (namespace, labels, prefixes) change values it covers; a changed ciphertext
 * still fails, as AES-GCM authenticates every value.
 */
export async function decryptResources(
  resources: Resource[],
  keys: SopsKeys,
  root: string,
  secrets: Redactor,
  dir = root,
): Promise<void> {
  for (const r of resources) {
    if (decryptDisabled(r)) continue;
    if (isSopsEncryptedObject(r.obj)) {
      const text = Buffer.from(JSON.stringify(r.obj));
      const out = await decrypt(text, keys, describeResource(r, root, dir), {
        inputType: "json",
        outputType: "json",
        ignoreMac: true,
      });
      const obj = JSON.parse(out.toString("utf8")) as Record<string, unknown>;
      for (const k of Object.keys(r.obj)) delete r.obj[k];
      Object.assign(r.obj, obj);
      secrets.addObjects([r.obj as unknown as KubeObject]);
      continue;
    }
    if (r.obj.kind !== "Secret" || !r.obj.data || typeof r.obj.data !== "object") continue;
    const data = r.obj.data as Record<string, unknown>;
    for (const [key, value] of Object.entries(data)) {
      if (typeof value !== "string") continue;
      const bytes = Buffer.from(value, "base64");
      if (bytes.toString("base64") !== value.replace(/\s/g, "")) continue; // not base64: the apply says so
      const inputType = detectEncryptedFormat(bytes);
      if (!inputType) continue;
      const out = await decrypt(bytes, keys, `${describeResource(r, root, dir)} data key '${key}'`, {
        inputType,
        outputType: formatForPath(key),
        ignoreMac: true,
      });
      data[key] = out.toString("base64");
      secrets.addValues([out.toString("utf8")]);
    }
  }
}
