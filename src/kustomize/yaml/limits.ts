// Limits that keep a hostile YAML file from hurting the controller that builds it. Nesting: the
// parser, the printer and every transformer recurse once per level, and V8 aborts the whole
// process (not just the build) when a regular expression is compiled at the edge of the stack, as
// 10 000 nested `[` do. Aliases: a "billion laughs" document of a few hundred bytes expands to
// 10^9 nodes; go-yaml v3's own heuristic (and message) refuses it after a thousand or so.

/** Deepest nesting of collections a document may have (go-yaml allows 10 000; real manifests use < 50). */
export const MAX_NESTING_DEPTH = 256;

export const tooDeep = () =>
  `document nests collections deeper than ${MAX_NESTING_DEPTH} levels, flotilla's limit for a manifest`;

export const EXCESSIVE_ALIASING = "document contains excessive aliasing";

/** go-yaml v3's rule: most of what was decoded came from expanding aliases. */
export function excessiveAliasing(decoded: number, fromAliases: number): boolean {
  if (fromAliases <= 100 || decoded <= 1000) return false;
  const low = 400_000;
  const high = 4_000_000;
  const allowed = decoded <= low ? 0.99 : decoded >= high ? 0.1 : 0.99 - 0.89 * ((decoded - low) / (high - low));
  return fromAliases / decoded > allowed;
}
