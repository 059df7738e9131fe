// The OCI image manifest (image-spec v1.1) and the media types flotilla reads or refuses.

export interface OciDescriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
  artifactType?: string;
}

export interface OciManifest {
  schemaVersion: 2;
  mediaType?: string;
  artifactType?: string;
  config: OciDescriptor;
  layers: OciDescriptor[];
  annotations?: Record<string, string>;
}

export const OCI_MANIFEST_MEDIA_TYPE = "application/vnd.oci.image.manifest.v1+json";
export const OCI_INDEX_MEDIA_TYPE = "application/vnd.oci.image.index.v1+json";
export const DOCKER_MANIFEST_MEDIA_TYPE = "application/vnd.docker.distribution.manifest.v2+json";
export const DOCKER_MANIFEST_LIST_MEDIA_TYPE = "application/vnd.docker.distribution.manifest.list.v2+json";

/** What a manifest GET accepts: single manifests, and indexes so that one can be named in the error. */
export const MANIFEST_ACCEPT = [
  OCI_MANIFEST_MEDIA_TYPE,
  OCI_INDEX_MEDIA_TYPE,
  DOCKER_MANIFEST_MEDIA_TYPE,
  DOCKER_MANIFEST_LIST_MEDIA_TYPE,
].join(", ");

export const isIndexMediaType = (t: string | undefined) =>
  t === OCI_INDEX_MEDIA_TYPE || t === DOCKER_MANIFEST_LIST_MEDIA_TYPE;

/** OCI annotations Flux writes on the manifest (fluxcd/pkg/oci constants.go). */
export const SOURCE_ANNOTATION = "org.opencontainers.image.source";
export const REVISION_ANNOTATION = "org.opencontainers.image.revision";
export const CREATED_ANNOTATION = "org.opencontainers.image.created";
