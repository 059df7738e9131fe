// How controllers get sources (Kustomization, HelmChart; HelmRelease later): read the source object
// a sourceRef names — from the consumer's informer cache when it has it, else from the API — and
// its current artifact; for consumers of the files, download it from the artifact server, verify its
// digest and unpack it (artifact/fetch.ts, artifact/extract.ts), cached by digest, so a hundred
// consumers of one revision download and unpack it once.
import { FlotillaError } from "../util/errors.js";
import { writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { type KindEntry, SERVED_KINDS, USED_KINDS } from "../api/kinds.js";
import { pathOf } from "../api/paths.js";
import type { KubeClient } from "../kube/client.js";
import { NotFoundError } from "../kube/errors.js";
import type { KubeObject } from "../api/meta/object.js";
import { newestOf } from "../kube/resource-version.js";
import type { Artifact } from "../api/meta/artifact.js";
import { ArtifactDownloadError } from "./artifact/errors.js";
import { extractTarball } from "./artifact/extract.js";
import { type ArtifactLimits, DEFAULT_ARTIFACT_LIMITS, tooLarge } from "./artifact/limits.js";
import { fetchArtifact } from "./artifact/fetch.js";
import { UnpackedCache } from "./unpacked-cache.js";

export interface SourceRef {
  kind: "GitRepository" | "HelmRepository" | "HelmChart" | "OCIRepository" | "Bucket";
  name: string;
  namespace?: string;
  apiVersion?: string;
}

/** The source object does not exist (Flux: "Source '<kind>/<ns>/<name>' not found"). */
export class SourceNotFoundError extends FlotillaError {
  override name = "SourceNotFoundError";
}
/** The source exists but has no artifact yet (Flux: "Source artifact not found, retrying in 30s"). */
export class ArtifactNotReadyError extends FlotillaError {
  override name = "ArtifactNotReadyError";
}
const SOURCE_KINDS: Record<SourceRef["kind"], KindEntry> = {
  GitRepository: SERVED_KINDS.GitRepository,
  HelmRepository: SERVED_KINDS.HelmRepository,
  HelmChart: SERVED_KINDS.HelmChart,
  OCIRepository: SERVED_KINDS.OCIRepository,
  Bucket: USED_KINDS.Bucket,
};

export interface FetchedSource {
  artifact: Artifact;
  /** Directory holding the unpacked artifact (shared, read-only by convention). */
  dir: string;
  /** The directory may be collected once the reconcile is done with it (else after 15 minutes). */
  release(): void;
}

/** A cached read of a source object (an informer's), tried before a GET. */
export type SourceLookup = (kind: string, name: string, namespace: string) => KubeObject | undefined;

export class SourceFetcher {
  private readonly lookups: SourceLookup[] = [];
  private readonly cache?: UnpackedCache;

  constructor(
    private readonly client: KubeClient,
    /** Where fetch() unpacks artifacts; only needed by consumers of the files. */
    cacheDir?: string,
  ) {
    if (cacheDir) this.cache = new UnpackedCache(cacheDir);
  }

  /**
   * Read sources from a cache (a consumer controller's source informers) instead of the API. One
   * fetcher serves every controller of the process, each adding the caches it has: all are asked and the
   * newest copy wins. Each cache has its own watch, so one can lag another: a HelmRelease woken by its
   * informer's new OCIRepository revision must not read the Kustomization controller's older copy and
   * take the old revision for current (it then waited for its interval).
   */
  useCache(lookup: SourceLookup): void {
    this.lookups.push(lookup);
  }

  /** The source object; SourceNotFoundError when it does not exist. */
  async source<T extends object = KubeObject>(ref: SourceRef, defaultNamespace: string, fresh = false): Promise<T> {
    const ns = ref.namespace ?? defaultNamespace;
    const kind = SOURCE_KINDS[ref.kind];
    if (!kind) throw new SourceNotFoundError(`source kind ${ref.kind} is not supported`);
    const cached = fresh ? undefined : newestOf(this.lookups.map((lookup) => lookup(ref.kind, ref.name, ns)));
    if (cached) return cached as T;
    // Not in the cache (not watched, not synced, or really missing): ask the API.
    try {
      return await this.client.get<T>(pathOf(kind, ns, ref.name));
    } catch (err) {
      if (err instanceof NotFoundError)
        throw new SourceNotFoundError(`Source '${ref.kind}/${ns}/${ref.name}' not found`);
      throw err;
    }
  }

  async artifactOf(ref: SourceRef, defaultNamespace: string): Promise<Artifact> {
    let obj = await this.source<{ status?: { artifact?: Artifact } }>(ref, defaultNamespace);
    // A cache may lag the status write that gave the source its first artifact: ask the API before
    // reporting "not found" (and waiting --requeue-dependency) for what is already there.
    if (!obj.status?.artifact?.url && this.lookups.length)
      obj = await this.source<{ status?: { artifact?: Artifact } }>(ref, defaultNamespace, true);
    const id = `${ref.kind}/${ref.namespace ?? defaultNamespace}/${ref.name}`;
    if (!obj.status?.artifact?.url) throw new ArtifactNotReadyError(`Source artifact not found for '${id}'`);
    return obj.status.artifact;
  }

  /** The artifact unpacked into a directory named after its digest, refused over `limits`; release() it when done. */
  async fetch(
    ref: SourceRef,
    defaultNamespace: string,
    limits: ArtifactLimits = DEFAULT_ARTIFACT_LIMITS,
  ): Promise<FetchedSource> {
    if (!this.cache) throw new Error("SourceFetcher.fetch needs a cache directory");
    const artifact = await this.artifactOf(ref, defaultNamespace);
    const id = `${ref.kind}/${ref.namespace ?? defaultNamespace}/${ref.name}`;
    // The same bytes can be a tarball to unpack (an OCIRepository that copied a chart layer) and a single
    // file to keep (the HelmChart of that chart): one cache entry per digest and shape, never the other's.
    const key = isTarball(artifact) ? artifact.digest : `${artifact.digest}-file-${artifactFileName(artifact)}`;
    const lease = await this.cache.lease(id, key, (tmp) => this.unpack(artifact, tmp, `the artifact of ${id}`, limits));
    return { artifact, ...lease };
  }

  private async unpack(artifact: Artifact, tmp: string, what: string, limits: ArtifactLimits): Promise<void> {
    const data = await fetchArtifact(artifact, { maxBytes: limits.maxSize }).catch((err: unknown) => {
      // Not served (yet): the source controller is restarting or the artifact moved.
      throw err instanceof ArtifactDownloadError ? new ArtifactNotReadyError(err.message) : err;
    });
    if (isTarball(artifact)) await extractTarball(data, tmp, { limits, what });
    else if (data.length > limits.maxSize) throw tooLarge(limits, what);
    // A single-file artifact (a chart) keeps exactly the file name its artifact path gives it.
    else writeFileSync(join(tmp, artifactFileName(artifact)), data);
  }
}

const isTarball = (artifact: Pick<Artifact, "path">) => artifact.path.endsWith(".tar.gz");

/** The file name of a single-file artifact: the last segment of its path. */
export const artifactFileName = (artifact: Pick<Artifact, "path">) => basename(artifact.path);
