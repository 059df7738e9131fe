// Has the object drifted? Compares the live object with the server's dry-run of the desired one:
// labels, annotations, and everything outside metadata and status (the same view a plan's diff shows).
import type { KubeObject } from "../api/meta/object.js";

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = Object.keys(ao);
  if (keys.length !== Object.keys(bo).length) return false;
  return keys.every((k) => Object.hasOwn(bo, k) && deepEqual(ao[k], bo[k]));
}

const emptyToUndefined = (m: Record<string, string> | undefined) => (m && Object.keys(m).length ? m : undefined);

/** What drift is about: labels, annotations, and everything outside metadata and status. */
export function driftView(obj: KubeObject): Record<string, unknown> {
  const { metadata, status: _s, ...rest } = obj;
  return {
    metadata: { labels: emptyToUndefined(metadata.labels), annotations: emptyToUndefined(metadata.annotations) },
    ...rest,
  };
}

export function hasDrifted(live: KubeObject | undefined, dryRun: KubeObject): boolean {
  if (!live || !dryRun.metadata.resourceVersion) return true;
  return !deepEqual(driftView(live), driftView(dryRun));
}
