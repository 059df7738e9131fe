// Whether the stored artifact was built with the spec as it is now. The artifact's content depends on
// more than the commit — ignore rules, submodules, sparse directories, includes and verification —
// so an unchanged commit may still need a new artifact (Flux: gitContentConfigChanged).
import type { GitRepository } from "../../api/source/git-repository.js";
import type { Artifact } from "../../api/meta/artifact.js";
import { includesChanged } from "./includes.js";

/** spec.verify.mode with Flux's default and the lower-case alias folded in. */
export function verifyMode(obj: GitRepository): "HEAD" | "Tag" | "TagAndHEAD" | undefined {
  const mode = obj.spec.verify?.mode;
  if (!obj.spec.verify) return undefined;
  return !mode || mode === "head" ? "HEAD" : mode;
}

/** Verification must run again when never done for this mode (a stored HEAD check does not cover a tag). */
function requiresVerification(obj: GitRepository): boolean {
  const mode = verifyMode(obj);
  if (!mode) return false;
  const observed = obj.status?.sourceVerificationMode;
  return !observed || (observed !== mode && observed !== "TagAndHEAD");
}

const same = (a: string[] | undefined, b: string[] | undefined) =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((v, i) => v === b![i]);

export function contentConfigChanged(obj: GitRepository, includes: Artifact[]): boolean {
  const s = obj.status ?? {};
  return (
    (obj.spec.ignore ?? "") !== (s.observedIgnore ?? "") ||
    Boolean(obj.spec.recurseSubmodules) !== Boolean(s.observedRecurseSubmodules) ||
    !same(obj.spec.sparseCheckout, s.observedSparseCheckout) ||
    requiresVerification(obj) ||
    includesChanged(obj, includes)
  );
}
