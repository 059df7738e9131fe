// A resourceVersion as a number to compare: this apiserver hands them out from etcd's revision, which
// only grows, so of two copies of an object the one with the higher resourceVersion is the later.
// (Kubernetes calls them opaque; every copy compared here comes from the same apiserver.)
import type { KubeObject } from "../api/meta/object.js";

/** The object's resourceVersion as a number; -1 when it is not one. */
export function revisionOf(o: KubeObject): bigint {
  try {
    return BigInt(o.metadata.resourceVersion ?? "0");
  } catch {
    return -1n;
  }
}

/** The copy with the highest resourceVersion; undefined when there is none. */
export function newestOf<T extends KubeObject>(copies: (T | undefined)[]): T | undefined {
  let newest: T | undefined;
  for (const c of copies) if (c && (!newest || revisionOf(c) > revisionOf(newest))) newest = c;
  return newest;
}
