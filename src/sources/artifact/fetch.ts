// Reading a source's artifact: from our own storage when it holds it (the same process built it),
// otherwise by an HTTP GET of its URL (another replica's artifact server), and in both cases only
// when the bytes match the artifact's digest (Flux's `sha256:<hex>`).
import type { Storage } from "./storage.js";
import type { Artifact } from "../../api/meta/artifact.js";
import { digestOf } from "./storage.js";
import { ArtifactDownloadError, ArtifactVerificationError } from "./errors.js";

export interface FetchArtifactOptions {
  /** Storage to read first; only the artifact server is asked when it is absent. */
  storage?: Storage;
  signal?: AbortSignal;
}

/** Throws ArtifactVerificationError unless `data` has the artifact's digest. */
export function verifyDigest(data: Buffer, artifact: Pick<Artifact, "digest" | "url">): void {
  const digest = digestOf(data);
  if (digest !== artifact.digest)
    throw new ArtifactVerificationError(
      `computed digest doesn't match '${artifact.digest}' for ${artifact.url} (got ${digest})`,
    );
}

/** The artifact's verified bytes. */
export async function fetchArtifact(artifact: Artifact, o: FetchArtifactOptions = {}): Promise<Buffer> {
  const local = o.storage?.read(artifact);
  if (local) return local;
  const res = await fetch(artifact.url, { signal: o.signal });
  if (!res.ok) throw new ArtifactDownloadError(`failed to download artifact from ${artifact.url}: HTTP ${res.status}`);
  const data = Buffer.from(await res.arrayBuffer());
  verifyDigest(data, artifact);
  return data;
}
