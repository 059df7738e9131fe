// Flux's OCI artifact format, as fluxcd/pkg/oci push.go writes it through go-containerregistry: an OCI
// image manifest whose config has the media type application/vnd.cncf.flux.config.v1+json (an empty
// image config, the same bytes for every artifact), one content layer
// application/vnd.cncf.flux.content.v1.tar+gzip, and the org.opencontainers.image.{created,source,
// revision} annotations on the manifest (source and revision present even when empty, as Flux writes
// them), plus any user annotations over those.
import type { RegistryClient } from "./client.js";
import { OciError, OciNotFoundError, OciTooLargeError } from "./errors.js";
import {
  CREATED_ANNOTATION,
  OCI_MANIFEST_MEDIA_TYPE,
  type OciManifest,
  REVISION_ANNOTATION,
  SOURCE_ANNOTATION,
} from "./manifest.js";
import { formatOciUrl, type OciReference, referenceOf } from "./reference.js";
import { formatBytes } from "../artifact/limits.js";

export { buildArtifact, FLUX_DEFAULT_IGNORE_PATHS } from "./flux-tarball.js";

export const FLUX_CONFIG_MEDIA_TYPE = "application/vnd.cncf.flux.config.v1+json";
export const FLUX_CONTENT_MEDIA_TYPE = "application/vnd.cncf.flux.content.v1.tar+gzip";
export const HELM_CHART_CONTENT_MEDIA_TYPE = "application/vnd.cncf.helm.chart.content.v1.tar+gzip";

export interface ArtifactMeta {
  source?: string;
  revision?: string;
  created?: string;
  /** Every annotation of the manifest (the three above included), as Flux's MetadataFromAnnotations keeps them. */
  annotations: Record<string, string>;
}

export interface PushMeta {
  source?: string;
  revision?: string;
  /** RFC 3339; default now (UTC, whole seconds, as Go's time.RFC3339 prints it). */
  created?: string;
  annotations?: Record<string, string>;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export const nowRfc3339 = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * The config blob Flux pushes, the same for every artifact: go-containerregistry's empty image config.
 * Flux sets `created` on it, but for a config media type that is not an image config's,
 * go-containerregistry (v0.21) keeps the base config blob as it was, so the zero time stays, `diff_ids`
 * is null and there is no history (seen in what flux 2.9.5 pushes; the real time is in the annotation).
 */
export function fluxConfig(): Buffer {
  return Buffer.from(
    JSON.stringify({
      architecture: "",
      created: "0001-01-01T00:00:00Z",
      os: "",
      rootfs: { type: "layers", diff_ids: null },
      config: {},
    }),
  );
}

/** Pushes `content` (a tar.gz, e.g. from buildArtifact) as a Flux artifact at `ref`'s tag. */
export async function pushArtifact(
  client: RegistryClient,
  ref: OciReference,
  content: Buffer,
  meta: PushMeta,
): Promise<{ digest: string }> {
  if (ref.digest) throw new OciError(`cannot push to ${formatOciUrl(ref)}: a push names a tag, not a digest`);
  const created = meta.created ?? nowRfc3339();
  if (!RFC3339.test(created))
    throw new OciError(`invalid created timestamp "${created}": expected RFC 3339, e.g. 2024-01-02T15:04:05Z`);
  if (content[0] !== 0x1f || content[1] !== 0x8b)
    throw new OciError(`the content pushed to ${formatOciUrl(ref)} is not gzip (Flux's content layer is a tar.gz)`);
  const annotations: Record<string, string> = {
    [CREATED_ANNOTATION]: created,
    [SOURCE_ANNOTATION]: meta.source ?? "",
    [REVISION_ANNOTATION]: meta.revision ?? "",
    ...meta.annotations,
  };
  const config = fluxConfig();
  const configDigest = await client.pushBlob(ref.repository, config);
  const layerDigest = await client.pushBlob(ref.repository, content);
  const manifest: OciManifest = {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST_MEDIA_TYPE,
    config: { mediaType: FLUX_CONFIG_MEDIA_TYPE, size: config.length, digest: configDigest },
    layers: [{ mediaType: FLUX_CONTENT_MEDIA_TYPE, size: content.length, digest: layerDigest }],
    annotations: sortedKeys(annotations),
  };
  const digest = await client.putManifest(ref.repository, ref.tag ?? "latest", manifest);
  return { digest };
}

/** Go's encoding/json writes map keys sorted; so do we, so the manifest bytes match Flux's. */
const sortedKeys = (m: Record<string, string>) =>
  Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The artifact at `ref` (its digest if pinned, else its tag) and its first layer, as `flux pull artifact` takes it. */
export async function pullArtifact(
  client: RegistryClient,
  ref: OciReference,
  maxBytes: number,
): Promise<{ digest: string; manifest: OciManifest; layer: Buffer; meta: ArtifactMeta }> {
  const { digest, manifest } = await client.getManifest(ref.repository, referenceOf(ref));
  const layer = manifest.layers[0];
  if (!layer) throw new OciNotFoundError(`no layers found in artifact ${formatOciUrl(ref)}`);
  if (layer.size > maxBytes)
    throw new OciTooLargeError(
      `the layer of ${formatOciUrl(ref)} is ${formatBytes(layer.size)}, larger than ${formatBytes(maxBytes)}, the limit for it`,
    );
  const data = await client.getBlob(ref.repository, layer.digest, maxBytes);
  return { digest, manifest, layer: data, meta: metaOf(manifest) };
}

/** Flux's MetadataFromAnnotations: source, revision and created from the OCI annotations. */
export function metaOf(manifest: OciManifest): ArtifactMeta {
  const annotations = { ...manifest.annotations };
  return {
    ...(annotations[SOURCE_ANNOTATION] ? { source: annotations[SOURCE_ANNOTATION] } : {}),
    ...(annotations[REVISION_ANNOTATION] ? { revision: annotations[REVISION_ANNOTATION] } : {}),
    ...(annotations[CREATED_ANNOTATION] ? { created: annotations[CREATED_ANNOTATION] } : {}),
    annotations,
  };
}
