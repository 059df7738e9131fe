// What an OCIRepository stores from the artifact it resolved, as source-controller does: the layer
// spec.layerSelector.mediaType names (default: the first), either extracted and archived again with
// .sourceignore files and spec.ignore applied (operation extract, the default) or stored as it is
// (operation copy). Within flotilla's --artifact-max-size/--artifact-max-files: a layer declared
// larger than the size limit is never downloaded, and one that unpacks past a limit stops there.
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { OCIRepository } from "../../api/source/oci-repository.js";
import { extractTarball } from "../../sources/artifact/extract.js";
import { type ArtifactLimits, formatBytes } from "../../sources/artifact/limits.js";
import { createTarball } from "../../sources/artifact/tarball.js";
import { listArtifactFiles } from "../../sources/git/ignore-rules.js";
import type { RegistryClient } from "../../sources/oci/client.js";
import type { OciDescriptor } from "../../sources/oci/manifest.js";
import { makeWorkDir } from "../../util/work-dir.js";
import { asFailure, ReconcileFailure } from "../kit/failure.js";
import { LAYER_FAILED, PULL_FAILED, type Resolved } from "./resolve.js";

const layerFailure = (message: string) => new ReconcileFailure(LAYER_FAILED, message);

/** The layer to store; Flux's messages, plus the media types the artifact does have. */
export function selectLayer(obj: OCIRepository, layers: OciDescriptor[]): OciDescriptor {
  if (!layers.length) throw layerFailure("no layers found in artifact");
  const wanted = obj.spec.layerSelector?.mediaType;
  if (!wanted) return layers[0]!;
  const layer = layers.find((l) => l.mediaType === wanted);
  if (layer) return layer;
  const present = [...new Set(layers.map((l) => `'${l.mediaType}'`))].join(", ");
  throw layerFailure(
    `failed to find layer with media type '${wanted}' in artifact (its layers are ${present}): ` +
      "fix spec.layerSelector.mediaType or push the artifact with that layer",
  );
}

/** The bytes to store for the resolved artifact: a tarball of the extracted layer, or the layer itself. */
export async function layerContent(
  client: RegistryClient,
  obj: OCIRepository,
  resolved: Resolved,
  limits: ArtifactLimits,
): Promise<Buffer> {
  const layer = selectLayer(obj, resolved.manifest.layers);
  const id = `OCIRepository ${obj.metadata.namespace}/${obj.metadata.name}`;
  if (layer.size > limits.maxSize)
    throw layerFailure(
      `refused to pull layer ${layer.digest} of '${resolved.name}': it is ${formatBytes(layer.size)}, over the ` +
        `${formatBytes(limits.maxSize)} limit set by --artifact-max-size; push a smaller artifact or raise the limit`,
    );
  let blob: Buffer;
  try {
    blob = await client.getBlob(resolved.repository.repository, layer.digest, limits.maxSize);
  } catch (err) {
    throw asFailure(
      err,
      (m) => new ReconcileFailure(PULL_FAILED, `failed to pull artifact from '${obj.spec.url}': ${m}`),
    );
  }
  if (obj.spec.layerSelector?.operation === "copy") return blob;
  const work = makeWorkDir("oci-");
  try {
    const dir = join(work, "content");
    try {
      await extractTarball(blob, dir, { limits, what: `the artifact of ${id} (${resolved.revision})` });
    } catch (err) {
      throw layerFailure(`failed to extract layer contents from artifact: ${(err as Error).message}`);
    }
    return createTarball(dir, listArtifactFiles(dir, obj.spec.ignore, false));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
