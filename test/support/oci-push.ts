// Pushing artifacts to a test registry the way `flux push artifact` does (the OCI library's
// buildArtifact + pushArtifact: Flux's config, content layer and annotations), from files written
// into a scratch directory; and raw pushes for artifacts Flux would not make (another layer type).
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
