// helm-controller's release "observation" digest (internal/release/observation.go): the release's
// name, version, info, chart metadata, config, manifest, hooks (test hooks left out) and namespace,
// encoded by Go's json.Encoder and hashed with sha256. helm wrote the stored record with the same Go
// structs, so its sub-objects are re-encoded in their stored key order; maps (config, annotations) are
// sorted by key as Go sorts them, and HTML characters escaped as Go's encoder escapes them.
import { createHash } from "node:crypto";
import type { StoredHook, StoredRelease } from "./types.js";

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Keys sorted by byte order at every level: Go's encoding of map[string]any. */
function sortedMap(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedMap);
  if (!isPlainObject(v)) return v;
  const keys = Object.keys(v).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return Object.fromEntries(keys.map((k) => [k, sortedMap(v[k])]));
}

/** JSON text as Go's json.Encoder writes it (HTML-safe escapes), objects in the order given. */
function goJson(v: unknown): string {
  if (isPlainObject(v)) {
    // JSON.stringify would put integer-like keys first; Go keeps the (already sorted) order.
    const body = Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `${goJson(k)}:${goJson(x)}`);
    return `{${body.join(",")}}`;
  }
  if (Array.isArray(v)) return `[${v.map(goJson).join(",")}]`;
  return JSON.stringify(v ?? null)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export const isTestHook = (h: StoredHook): boolean => (h.events ?? []).includes("test");

/**
 * The observation as helm-controller encodes it before hashing; a release made from an OCIRepository chart
 * carries the artifact's digest (the Observation struct's last field, ociDigest, omitted when empty).
 */
export function observationText(release: StoredRelease, ociDigest?: string): string {
  const metadata = release.chart?.metadata as Record<string, unknown> | undefined;
  const hooks = (release.hooks ?? []).filter((h) => !isTestHook(h));
  const config = release.config && Object.keys(release.config).length ? sortedMap(release.config) : null;
  const observation = {
    name: release.name,
    version: release.version,
    info: release.info ?? {},
    chartMetadata: metadata
      ? { ...metadata, ...(metadata.annotations ? { annotations: sortedMap(metadata.annotations) } : {}) }
      : {},
    config,
    manifest: release.manifest ?? "",
    hooks: hooks.length ? hooks : null,
    namespace: release.namespace,
    ...(ociDigest ? { ociDigest } : {}),
  };
  return `${goJson(observation)}\n`;
}

/** "sha256:<hex>" of the release's observation, as status.history[].digest holds it. */
export const observationDigest = (release: StoredRelease, ociDigest?: string): string =>
  `sha256:${createHash("sha256").update(observationText(release, ociDigest)).digest("hex")}`;
