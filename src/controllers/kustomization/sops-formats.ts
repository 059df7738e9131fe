// kustomize-controller's rules for telling what SOPS encrypted and in which format (its
// internal/decryptor): a file's format from its name, an encrypted value from sops' marker bytes, an
// encrypted object from a `sops` block with a MAC. Pure functions; decryption itself runs sops.
import type { SopsFormat } from "../../binaries/sops/index.js";

/** sops' formats.FormatForPath, plus Flux's rule that a `.dockerconfigjson` key is JSON. */
export function formatForPath(path: string): SopsFormat {
  if (path.endsWith(".dockerconfigjson")) return "json";
  if (path.endsWith(".yaml") || path.endsWith(".yml")) return "yaml";
  if (path.endsWith(".json")) return "json";
  if (path.endsWith(".env")) return "dotenv";
  if (path.endsWith(".ini")) return "ini";
  return "binary";
}

// The bytes sops writes only into the files it encrypted, per format (sopsFormatToMarkerBytes).
// Binary is a JSON envelope at rest: same marker as JSON, read as JSON.
const MARKERS: [SopsFormat, string][] = [
  ["json", '"mac": "ENC['],
  ["dotenv", "sops_mac=ENC["],
  ["ini", "[sops]"],
  ["yaml", "mac: ENC["],
];

/** The format `data` was encrypted in, or undefined when sops did not encrypt it. */
export function detectEncryptedFormat(data: Uint8Array): SopsFormat | undefined {
  const text = Buffer.from(data).toString("latin1");
  return MARKERS.find(([, marker]) => text.includes(marker))?.[0];
}

/** Whether `data`, read as `format`, carries sops' marker for that format (Flux decrypts only then). */
export function hasMarker(data: Uint8Array, format: SopsFormat): boolean {
  const marker = format === "binary" ? '"mac": "ENC[' : MARKERS.find(([f]) => f === format)![1];
  return Buffer.from(data).toString("latin1").includes(marker);
}

/** An object sops encrypted as a whole: a non-empty `sops` block with a `mac` (isSOPSEncryptedResource). */
export function isSopsEncryptedObject(obj: Record<string, unknown>): boolean {
  const sops = obj.sops as Record<string, unknown> | undefined;
  return !!sops && typeof sops === "object" && !!sops.mac;
}

/** The cloud key services sops knows and flotilla does not run, by the name sops' metadata uses. */
export const CLOUD_KEY_TYPES: Record<string, string> = {
  kms: "AWS KMS",
  gcp_kms: "GCP KMS",
  azure_kv: "Azure Key Vault",
  hc_vault: "HashiCorp Vault",
};

/**
 * The key types an encrypted text names in its metadata (age, pgp, kms, …), in any format: YAML/JSON
 * `age:`/`"age":` entries, dotenv `sops_age__list_0__…` and INI `age__list_0__…` keys.
 */
export function recipientTypes(data: Uint8Array): Set<string> {
  const text = Buffer.from(data).toString("latin1");
  const found = new Set<string>();
  for (const t of ["age", "pgp", ...Object.keys(CLOUD_KEY_TYPES)]) {
    const flat = new RegExp(`(^|[\\s_])${t}__list_\\d+__map_`, "m");
    const tree = new RegExp(`(^|[\\s{,])"?${t}"?\\s*:\\s*(\\[\\s*\\{|\\n\\s*-\\s)`, "m");
    if (flat.test(text) || tree.test(text)) found.add(t);
  }
  return found;
}

/**
 * Why flotilla refuses to decrypt `data` (`what` names it), or undefined: a file whose only recipients
 * are cloud key services cannot be opened with an age or OpenPGP key, and flotilla calls no cloud.
 */
export function cloudOnlyRefusal(data: Uint8Array, what: string): string | undefined {
  const types = recipientTypes(data);
  if (types.has("age") || types.has("pgp")) return undefined;
  const cloud = [...types].filter((t) => t in CLOUD_KEY_TYPES);
  if (!cloud.length) return undefined;
  const names = cloud.map((t) => `${CLOUD_KEY_TYPES[t]} (sops.${t})`).join(", ");
  return (
    `${what} is encrypted only for ${names}, which flotilla does not support: ` +
    `add an age or OpenPGP recipient to it (sops updatekeys) and put that key in the decryption Secret`
  );
}

/**
 * kustomize-controller's apply guard: a v1 Secret still carrying a `sops` block, in a Kustomization
 * without spec.decryption, is refused (its message), unless annotated decrypt: disabled.
 */
export function encryptedSecretRefusal(objects: Record<string, unknown>[]): string | undefined {
  for (const o of objects) {
    if (o.kind !== "Secret" || o.apiVersion !== "v1" || o.sops === undefined) continue;
    const md = (o.metadata ?? {}) as { name?: string; namespace?: string; annotations?: Record<string, string> };
    if (md.annotations?.["kustomize.toolkit.fluxcd.io/decrypt"]?.toLowerCase() === "disabled") continue;
    return `Secret/${md.namespace ? `${md.namespace}/` : ""}${md.name} is SOPS encrypted, configuring decryption is required for this secret to be reconciled`;
  }
  return undefined;
}
