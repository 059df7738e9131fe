// File access for a build, with kustomize's load restriction: a kustomization may read only files
// under its own root (LoadRestrictionsRootOnly), and remote bases are always refused — Flux's
// --no-remote-bases is flotilla's only mode: a build reads what its source artifact holds, nothing else.
import { readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { KustomizeError, LoadRestrictionError } from "./errors.js";

// The libc realpath: one system call, where the JavaScript one lstat()s every path component.
const realpath = (p: string) => realpathSync.native(p);

const REMOTE = /^(https?:\/\/|git@|ssh:\/\/|github\.com\/|gitlab\.com\/|bitbucket\.org\/)/;

export class Loader {
  readonly root: string;
  /** The loader of the kustomization that refers to this one, for cycle detection. */
  private readonly referrer?: Loader;
  constructor(root: string, referrer?: Loader) {
    this.root = realpath(root);
    this.referrer = referrer;
  }

  /** Resolves `path` relative to the root, refusing remote locations and files outside the root. */
  resolve(path: string, field: string, kustomizationFile: string): string {
    if (REMOTE.test(path)) {
      throw new LoadRestrictionError(
        `${kustomizationFile}: ${field} entry "${path}" is a remote base, and flotilla never fetches remote bases: vendor it into the repository`,
      );
    }
    const full = resolve(this.root, path);
    let real: string;
    try {
      real = realpath(full);
    } catch {
      throw new KustomizeError(
        `${kustomizationFile}: ${field} entry "${path}": no such file or directory (looked for ${full})`,
      );
    }
    // Kustomization directories (bases like ../base) may live anywhere local; files may not.
    if (statSync(real).isDirectory()) return real;
    const rel = relative(this.root, real);
    if (rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) {
      throw new LoadRestrictionError(
        `${kustomizationFile}: ${field} entry "${path}" is outside the kustomization root ${this.root}: security; file '${real}' is not in or below '${this.root}'`,
      );
    }
    return real;
  }

  isDirectory(path: string): boolean {
    return statSync(path).isDirectory();
  }

  read(path: string): string {
    return readFileSync(path, "utf8");
  }

  readBytes(path: string): Uint8Array {
    return readFileSync(path);
  }

  /**
   * A loader for a nested kustomization; its root is the nested directory (same restrictions).
   * `referredBy` says which entry asked for it, for the message when it would be a cycle.
   */
  child(dir: string, referredBy: string): Loader {
    const candidate = realpath(dir);
    const visited = this.visitedUnder(candidate);
    if (visited) {
      throw new KustomizeError(
        `${referredBy} leads back to a kustomization already being built: cycle detected: candidate root '${candidate}' contains visited root '${visited}'`,
      );
    }
    return new Loader(candidate, this);
  }

  /**
   * The root of this kustomization, or of one that led here, that `candidate` is or contains (as
   * kustomize checks): building such a directory would recurse forever.
   */
  private visitedUnder(candidate: string): string | undefined {
    if (this.root === candidate || candidate === sep || this.root.startsWith(candidate + sep)) return this.root;
    return this.referrer?.visitedUnder(candidate);
  }
}
