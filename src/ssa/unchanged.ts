// Deciding "unchanged" without a server-side dry-run. Most reconciles change nothing, and a dry-run
// per object is most of their cost. An apply of `desired` cannot change `live` when:
//   1. every field of `desired` is present in `live` with the same value (desired ⊆ live), and
//   2. every field our field manager owns in `live` is still in `desired` (nothing to remove), and
//   3. there is nothing to take over from other managers (checked by the caller).
// Any doubt (defaulted or re-formatted values, unknown fieldsV1 keys) answers "no", and the normal
// dry-run decides. See docs/decisions/0006-skip-dry-run-when-provably-unchanged.md.
import type { KubeObject } from "../api/meta/object.js";
import { deepEqual } from "./drift.js";

type Json = unknown;

/** desired ⊆ live: objects recursively, arrays element by element with equal length. */
export function isSubset(desired: Json, live: Json): boolean {
  if (desired === null) return live === null || live === undefined;
  if (Array.isArray(desired)) {
    return Array.isArray(live) && desired.length === live.length && desired.every((d, i) => isSubset(d, live[i]));
  }
  if (typeof desired === "object") {
    if (!live || typeof live !== "object" || Array.isArray(live)) return false;
    const l = live as Record<string, Json>;
    return Object.entries(desired as Record<string, Json>).every(([k, v]) => isSubset(v, l[k]));
  }
  return desired === live;
}

/** Every field in a managedFields `fieldsV1` set exists in `obj`. */
export function fieldSetCoveredBy(fields: Record<string, unknown>, obj: Json): boolean {
  for (const [key, children] of Object.entries(fields)) {
    if (key === ".") continue;
    const sub = (children ?? {}) as Record<string, unknown>;
    const kind = key.slice(0, 2);
    const rest = key.slice(2);
    let next: Json;
    if (kind === "f:") {
      if (!obj || typeof obj !== "object" || Array.isArray(obj)) return false;
      next = (obj as Record<string, Json>)[rest];
      if (next === undefined) return false;
    } else if (kind === "k:") {
      if (!Array.isArray(obj)) return false;
      const keyFields = JSON.parse(rest) as Record<string, Json>;
      next = obj.find(
        (el) =>
          el &&
          typeof el === "object" &&
          Object.entries(keyFields).every(([f, v]) => deepEqual((el as Record<string, Json>)[f], v)),
      );
      if (next === undefined) return false;
    } else if (kind === "v:") {
      if (!Array.isArray(obj)) return false;
      const value = JSON.parse(rest) as Json;
      if (!obj.some((el) => deepEqual(el, value))) return false;
      continue;
    } else if (kind === "i:") {
      if (!Array.isArray(obj)) return false;
      next = obj[Number(rest)];
      if (next === undefined) return false;
    } else {
      return false; // a key shape we do not know: let the dry-run decide
    }
    if (Object.keys(sub).length && !fieldSetCoveredBy(sub, next)) return false;
  }
  return true;
}

export function isProvablyUnchanged(desired: KubeObject, live: KubeObject, fieldManager: string): boolean {
  const ours = (live.metadata.managedFields ?? []).filter(
    (e) => e.manager === fieldManager && e.operation === "Apply" && !e.subresource,
  );
  if (ours.length !== 1 || !ours[0]!.fieldsV1) return false;
  if (ours[0]!.apiVersion && ours[0]!.apiVersion !== desired.apiVersion) return false;
  if (!isSubset(desired, live)) return false;
  return fieldSetCoveredBy(ours[0]!.fieldsV1, desired);
}
