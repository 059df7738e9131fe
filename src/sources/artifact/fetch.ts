// Reading a source's artifact: from our own storage when it holds it (the same process built it),
// otherwise by an HTTP GET of its URL (another replica's artifact server), and in both cases only
// when the bytes match the artifact's digest (Flux's `sha256:<hex>`).
import type { Storage } from "./storage.js";
import type { Artifact } from "../../api/meta/artifact.js";
import { digestOf } from "./storage.js";
import { ArtifactDownloadError, ArtifactLimitError, ArtifactVerificationError } from "./errors.js";
import { readCapped, ResponseTooLargeError } from "../../util/read-capped.js";
import { formatBytes } from "./limits.js";

export interface FetchArtifactOptions {
  /** Storage to read first; only the artifact server is asked when it is absent. */
  storage?: Storage;
  signal?: AbortSignal;
  /** The whole download, body included (default 5 minutes). */
  timeoutMs?: number;
  /** Bytes accepted from the server (default 1 GiB, --artifact-max-size's default). */
  maxBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_MAX_BYTES = 1024 ** 3;

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
  const timeout = AbortSignal.timeout(o.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  const maxBytes = o.maxBytes ?? DEFAULT_MAX_BYTES;
  try {
    const res = await fetch(artifact.url, { signal });
    if (!res.ok)
      throw new ArtifactDownloadError(`failed to download artifact from ${artifact.url}: HTTP ${res.status}`);
    const data = await readCapped(
      res,
      maxBytes,
      () => `artifact ${artifact.url} is larger than ${formatBytes(maxBytes)}, the limit set by --artifact-max-size`,
    );
    verifyDigest(data, artifact);
    return data;
  } catch (err) {
    if (err instanceof ResponseTooLargeError) throw new ArtifactLimitError(err.message);
    if (timeout.aborted && !o.signal?.aborted)
      throw new ArtifactDownloadError(
        `failed to download artifact from ${artifact.url}: no complete answer within ${Math.round((o.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s`,
      );
    throw err;
  }
}
