// JSON merge patch (RFC 7386) arithmetic the controllers need: would a patch change anything?
// A status patch that changes nothing is not sent — an idle reconcile of an unchanged source then
// costs the apiserver nothing, as with Flux's patch helper, which diffs before it writes.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => equal(a[k], b[k]));
  }
  return false;
}

/** True when applying `patch` as a merge patch to `current` would leave it as it is. */
export function isNoopMergePatch(current: unknown, patch: unknown): boolean {
  if (!isObject(patch)) return equal(current, patch);
  const base = isObject(current) ? current : undefined;
  if (!base) return Object.values(patch).every((v) => v === undefined);
  return Object.entries(patch).every(([k, v]) => {
    if (v === undefined) return true;
    if (v === null) return base[k] === undefined || base[k] === null;
    if (isObject(v)) return isObject(base[k]) && isNoopMergePatch(base[k], v);
    return equal(base[k], v as Json);
  });
}
