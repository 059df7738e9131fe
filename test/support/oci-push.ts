// Pushing artifacts to a test registry the way `flux push artifact` does (the OCI library's
// buildArtifact + pushArtifact: Flux's config, content layer and annotations), from files written
// into a scratch directory; raw pushes for artifacts Flux would not make (another layer type); and
// cosign key signatures.
import { type KeyObject, sign } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { RegistryClient, type RegistryOptions } from "../../src/sources/oci/client.js";
import { buildArtifact, pushArtifact } from "../../src/sources/oci/flux-artifact.js";
import { OCI_MANIFEST_MEDIA_TYPE } from "../../src/sources/oci/manifest.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

export interface PushTarget {
  host: string;
  repository: string;
  options?: RegistryOptions;
}

/** Pushes `files` as a Flux artifact at `tag`; returns the manifest digest. */
export async function pushFiles(
  to: PushTarget,
  tag: string,
  files: Record<string, string | Buffer>,
  meta: { source?: string; revision?: string } = {},
): Promise<string> {
  const dir = makeWorkDir("oci-push-");
  const client = new RegistryClient(to.host, { insecure: !to.options?.ca, ...to.options });
  try {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    const content = await buildArtifact(dir, []);
    const ref = { registry: to.host, repository: to.repository, tag };
    const source = meta.source ?? "https://example.com/fleet.git";
    return (await pushArtifact(client, ref, content, { source, revision: meta.revision ?? `main@sha1:${tag}` })).digest;
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pushes one layer of `mediaType` (bytes as given) at `tag`, not in Flux's format; returns the manifest digest. */
export async function pushRawLayer(to: PushTarget, tag: string, mediaType: string, layer: Buffer): Promise<string> {
  const client = new RegistryClient(to.host, { insecure: true, ...to.options });
  try {
    const config = Buffer.from("{}");
    const configDigest = await client.pushBlob(to.repository, config);
    const layerDigest = await client.pushBlob(to.repository, layer);
    return await client.putManifest(to.repository, tag, {
      schemaVersion: 2,
      mediaType: OCI_MANIFEST_MEDIA_TYPE,
      config: { mediaType: "application/vnd.oci.empty.v1+json", digest: configDigest, size: config.length },
      layers: [{ mediaType, digest: layerDigest, size: layer.length }],
    });
  } finally {
    await client.close();
  }
}

/** A ConfigMap manifest (YAML) for an artifact's content. */
export const configMapYaml = (name: string, namespace: string, data: Record<string, string>) =>
  [
    "apiVersion: v1",
    "kind: ConfigMap",
    "metadata:",
    `  name: ${name}`,
    `  namespace: ${namespace}`,
    "data:",
    ...Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`),
    "",
  ].join("\n");

/**
 * Signs the manifest `digest` the way `cosign sign --key` does (before bundles): a simple-signing
 * payload naming the digest, its ECDSA/SHA-256 signature in the layer annotation, at `sha256-<hex>.sig`.
 */
export async function pushCosignSignature(to: PushTarget, digest: string, privateKey: KeyObject): Promise<void> {
  const payload = Buffer.from(
    JSON.stringify({
      critical: {
        identity: { "docker-reference": `${to.host}/${to.repository}` },
        image: { "docker-manifest-digest": digest },
        type: "cosign container image signature",
      },
      optional: null,
    }),
  );
  const signature = sign("sha256", payload, privateKey).toString("base64");
  const client = new RegistryClient(to.host, { insecure: true, ...to.options });
  try {
    const config = Buffer.from("{}");
    const configDigest = await client.pushBlob(to.repository, config);
    const layerDigest = await client.pushBlob(to.repository, payload);
    await client.putManifest(to.repository, `${digest.replace(":", "-")}.sig`, {
      schemaVersion: 2,
      mediaType: OCI_MANIFEST_MEDIA_TYPE,
      config: { mediaType: "application/vnd.oci.image.config.v1+json", digest: configDigest, size: config.length },
      layers: [
        {
          mediaType: "application/vnd.dev.cosign.simplesigning.v1+json",
          digest: layerDigest,
          size: payload.length,
          annotations: { "dev.cosignproject.cosign/signature": signature },
        },
      ],
    });
  } finally {
    await client.close();
  }
}
