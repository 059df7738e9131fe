// Artifact storage: `<root>/<kind>/<namespace>/<name>/<file>`, written to a temporary file and
// renamed into place (a controller killed mid-write never leaves a half artifact behind; a failed
// write, e.g. a full disk, removes its temporary file), digests in Flux's `sha256:<hex>` form, and
// old artifacts of an object garbage-collected.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import type { Artifact } from "../../api/meta/artifact.js";
import { ArtifactStorageError, InvalidArtifactPathError } from "./errors.js";
import { artifactDir, artifactPath, isArtifactDir, isArtifactPath } from "./artifact-path.js";

export const digestOf = (data: Buffer) => `sha256:${createHash("sha256").update(data).digest("hex")}`;

export class Storage {
  constructor(
    readonly root: string,
    /** Base URL consumers fetch artifacts from, e.g. http://127.0.0.1:9090. */
    readonly baseUrl: string,
  ) {
    mkdirSync(root, { recursive: true });
  }

  objectDir(kind: string, namespace: string, name: string): string {
    return artifactDir(kind, namespace, name);
  }

  /** `<kind>/<ns>/<name>/<file>`, each a plain segment (InvalidArtifactPathError otherwise). */
  artifactPath(kind: string, namespace: string, name: string, file: string): string {
    return artifactPath(kind, namespace, name, file);
  }

  /** Absolute path of an artifact's relative path; only paths of artifactPath's shape are accepted. */
  fullPath(relPath: string): string {
    if (!isArtifactPath(relPath)) throw new InvalidArtifactPathError(`'${relPath}' is not an artifact path`);
    return this.confined(relPath);
  }

  /** Absolute path of an object's directory (`<kind>/<ns>/<name>`), for collection and removal. */
  private objectDirPath(dir: string): string {
    if (!isArtifactDir(dir)) throw new InvalidArtifactPathError(`'${dir}' is not an artifact directory`);
    return this.confined(dir);
  }

  private confined(relPath: string): string {
    const full = normalize(join(this.root, relPath));
    if (!full.startsWith(this.root + sep)) throw new InvalidArtifactPathError(`'${relPath}' escapes the storage root`);
    return full;
  }

  url(relPath: string): string {
    return `${this.baseUrl.replace(/\/$/, "")}/${relPath}`;
  }

  exists(artifact: Pick<Artifact, "path" | "digest"> | undefined): boolean {
    if (!artifact?.path || !isArtifactPath(artifact.path)) return false;
    const full = this.fullPath(artifact.path);
    return existsSync(full) && digestOf(readFileSync(full)) === artifact.digest;
  }

  /** The artifact's bytes when it is in storage and matches its digest; undefined otherwise. */
  read(artifact: Pick<Artifact, "path" | "digest">): Buffer | undefined {
    if (!isArtifactPath(artifact.path)) return undefined;
    const full = this.fullPath(artifact.path);
    if (!existsSync(full)) return undefined;
    const data = readFileSync(full);
    return digestOf(data) === artifact.digest ? data : undefined;
  }

  store(relPath: string, data: Buffer, revision: string): Artifact {
    const full = this.fullPath(relPath);
    const tmp = `${full}.tmp-${randomBytes(4).toString("hex")}`;
    try {
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(tmp, data);
      renameSync(tmp, full);
    } catch (err) {
      // A full disk leaves a partial temporary file: remove it, the previous artifact stays as it was.
      rmSync(tmp, { force: true });
      throw new ArtifactStorageError(`unable to archive artifact to storage: ${(err as Error).message}`);
    }
    return {
      path: relPath,
      url: this.url(relPath),
      revision,
      digest: digestOf(data),
      lastUpdateTime: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
      size: data.length,
    };
  }

  /** Deletes an object's artifacts except the newest `keep` (and any interrupted temporary files). */
  garbageCollect(dir: string, current: string, keep = 2): string[] {
    const full = this.objectDirPath(dir);
    if (!existsSync(full)) return [];
    const files = readdirSync(full)
      .map((f) => ({ f, rel: `${dir}/${f}`, mtime: statSync(join(full, f)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    const deleted: string[] = [];
    let others = 0;
    for (const { f, rel } of files) {
      const interrupted = f.includes(".tmp-");
      // Keep the current artifact and the newest `keep - 1` others; interrupted writes always go.
      if (!interrupted && (rel === current || others++ < keep - 1)) continue;
      rmSync(join(full, f), { force: true });
      deleted.push(rel);
    }
    return deleted;
  }

  /** Removes everything stored for an object (finalizer). */
  removeAll(dir: string): void {
    rmSync(this.objectDirPath(dir), { recursive: true, force: true });
  }
}
