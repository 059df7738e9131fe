// File access for a build. Without confinement (`flotilla kustomize build DIR`), kustomize's load
// restriction: a kustomization reads files only under its own root (LoadRestrictionsRootOnly) while
// its bases may be any local directory. Confined to an artifact root (the controller), Flux's: every
// file and directory, links resolved, must lie inside that root — and files may come from anywhere
// in it (Flux builds with LoadRestrictionsNone on a file system closed at the artifact root).
// Remote bases are always refused: a build reads what its source artifact holds, nothing else.
import { readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { confinedRealpath, isInside } from "../util/confined-path.js";
import { KustomizeError, LoadRestrictionError } from "./errors.js";

// The libc realpath: one system call, where the JavaScript one lstat()s every path component.
const realpath = (p: string) => realpathSync.native(p);

const REMOTE = /^(https?:\/\/|git@|ssh:\/\/|github\.com\/|gitlab\.com\/|bitbucket\.org\/)/;

/**
 * `full`, links resolved, when it lies inside the artifact `root`; otherwise a LoadRestrictionError
 * naming `what` (decided without looking outside: a refusal tells nothing about what is there).
 */
export function confinedPath(full: string, root: string, what: string): string {
  const found = confinedRealpath(full, root);
  if ("real" in found) return found.real;
  if ("missing" in found) throw new KustomizeError(`${what}: no such file or directory (looked for ${full})`);
  throw new LoadRestrictionError(
    `${what} leads outside the source artifact: security; file '${found.outside}' is not in or below '${root}'; ` +
      `a build reads only its own artifact: keep the files in the repository and refer to them by a path inside it`,
  );
}

export class Loader {
  readonly root: string;
  /** The loader of the kustomization that refers to this one, for cycle detection. */
  private readonly referrer?: Loader;
  /** The artifact root every path must resolve inside (a real path), when the build is confined. */
  readonly confineTo?: string;
  /**
   * Files the build reads from memory instead of disk, by real path: the plaintext of SOPS-encrypted
   * generator and patch sources, which must never be written to disk nor enter the parse cache.
   */
  private readonly plaintext?: ReadonlyMap<string, Uint8Array>;
  constructor(root: string, referrer?: Loader, confineTo?: string, plaintext?: ReadonlyMap<string, Uint8Array>) {
    this.root = realpath(root);
    this.referrer = referrer;
    this.plaintext = plaintext;
    this.confineTo = confineTo && (referrer ? confineTo : realpath(confineTo));
    if (this.confineTo && !isInside(this.root, this.confineTo))
      throw new LoadRestrictionError(
        `security; kustomization directory '${this.root}' is not in or below the source artifact '${this.confineTo}'`,
      );
  }

  confined(full: string, field: string, kustomizationFile: string, entry: string): string {
    return confinedPath(full, this.confineTo!, `${kustomizationFile}: ${field} entry "${entry}"`);
  }

  /** Resolves `path` relative to the root, refusing remote locations and files outside the root. */
  resolve(path: string, field: string, kustomizationFile: string): string {
    if (REMOTE.test(path)) {
      throw new LoadRestrictionError(
        `${kustomizationFile}: ${field} entry "${path}" is a remote base, and flotilla never fetches remote bases: vendor it into the repository`,
      );
    }
    const full = resolve(this.root, path);
    if (this.confineTo) return this.confined(full, field, kustomizationFile, path);
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

  /** The root files must lie under: the artifact when confined, else this kustomization's (kustomize's rule). */
  get filesRoot(): string {
    return this.confineTo ?? this.root;
  }

  isDirectory(path: string): boolean {
    return statSync(path).isDirectory();
  }

  /** Whether `path` is read from memory (decrypted): such a file must not be cached. */
  inMemory(path: string): boolean {
    return !!this.plaintext?.has(path);
  }

  read(path: string): string {
    const held = this.plaintext?.get(path);
    return held ? Buffer.from(held).toString("utf8") : readFileSync(path, "utf8");
  }

  readBytes(path: string): Uint8Array {
    return this.plaintext?.get(path) ?? readFileSync(path);
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
    return new Loader(candidate, this, this.confineTo, this.plaintext);
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
