// How Kustomization and HelmRelease controllers get sources: resolve a sourceRef to the source's
// current artifact, download it from the artifact server, verify its digest, and unpack it —
// cached by digest, so a hundred consumers of one revision download and unpack it once.
import { FlotillaError } from "../util/errors.js";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import { type KindEntry, SERVED_KINDS, USED_KINDS } from "../api/kinds.js";
import { pathOf } from "../api/paths.js";
import type { KubeClient } from "../kube/client.js";
import { NotFoundError } from "../kube/errors.js";
import type { KubeObject } from "../api/meta/object.js";
import type { Artifact } from "../api/meta/artifact.js";
import { readTarball } from "./artifact/tarball.js";

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
export class ArtifactVerificationError extends FlotillaError {
  override name = "ArtifactVerificationError";
}

const SOURCE_KINDS: Record<SourceRef["kind"], KindEntry> = {
  GitRepository: SERVED_KINDS.GitRepository,
  HelmRepository: SERVED_KINDS.HelmRepository,
  HelmChart: SERVED_KINDS.HelmChart,
  OCIRepository: USED_KINDS.OCIRepository,
  Bucket: USED_KINDS.Bucket,
};

export interface FetchedSource {
  artifact: Artifact;
  /** Directory holding the unpacked artifact (shared, read-only by convention). */
  dir: string;
}

/** A cached read of a source object (an informer's), tried before a GET. */
export type SourceLookup = (kind: string, name: string, namespace: string) => KubeObject | undefined;

export class SourceFetcher {
  private lookup?: SourceLookup;

  constructor(
    private readonly client: KubeClient,
    private readonly cacheDir: string,
  ) {
    mkdirSync(cacheDir, { recursive: true });
  }

  /** Read sources from a cache (the consumer controller's source informers) instead of the API. */
  useCache(lookup: SourceLookup): void {
    this.lookup = lookup;
  }

  async artifactOf(ref: SourceRef, defaultNamespace: string): Promise<Artifact> {
    const ns = ref.namespace ?? defaultNamespace;
    const id = `${ref.kind}/${ns}/${ref.name}`;
    const kind = SOURCE_KINDS[ref.kind];
    if (!kind) throw new SourceNotFoundError(`source kind ${ref.kind} is not supported`);
    type Source = { status?: { artifact?: Artifact } };
    let obj = this.lookup?.(ref.kind, ref.name, ns) as Source | undefined;
    // Not in the cache (not watched, not synced, or really missing): ask the API.
    if (!obj) {
      try {
        obj = await this.client.get<Source>(pathOf(kind, ns, ref.name));
      } catch (err) {
        if (err instanceof NotFoundError) throw new SourceNotFoundError(`Source '${id}' not found`);
        throw err;
      }
    }
    if (!obj.status?.artifact?.url) throw new ArtifactNotReadyError(`Source artifact not found for '${id}'`);
    return obj.status.artifact;
  }

  /** The artifact unpacked into a directory named after its digest. */
  async fetch(ref: SourceRef, defaultNamespace: string): Promise<FetchedSource> {
    const artifact = await this.artifactOf(ref, defaultNamespace);
    const dir = join(this.cacheDir, artifact.digest.replace(/[^a-z0-9]/gi, "-"));
    if (existsSync(dir)) return { artifact, dir };
    const res = await fetch(artifact.url);
    if (!res.ok)
      throw new ArtifactNotReadyError(`failed to download artifact from ${artifact.url}: HTTP ${res.status}`);
    const data = Buffer.from(await res.arrayBuffer());
    const digest = `sha256:${createHash("sha256").update(data).digest("hex")}`;
    if (digest !== artifact.digest)
      throw new ArtifactVerificationError(
        `computed digest doesn't match '${artifact.digest}' for ${artifact.url} (got ${digest})`,
      );
    const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
    if (artifact.path.endsWith(".tar.gz")) {
      for (const entry of readTarball(data)) {
        const target = normalize(join(tmp, entry.path));
        if (!target.startsWith(tmp + sep))
          throw new ArtifactVerificationError(`artifact entry ${entry.path} escapes its directory`);
        if (entry.type === "directory") mkdirSync(target, { recursive: true });
        else {
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, entry.content, { mode: entry.mode & 0o755 });
        }
      }
    } else {
      mkdirSync(tmp, { recursive: true });
      writeFileSync(join(tmp, artifact.path.split("/").pop()!), data);
    }
    mkdirSync(tmp, { recursive: true });
    try {
      renameSync(tmp, dir);
    } catch {
      rmSync(tmp, { recursive: true, force: true }); // another consumer won the race: same content
    }
    return { artifact, dir };
  }
}
