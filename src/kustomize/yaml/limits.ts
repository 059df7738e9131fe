// Limits that keep a hostile YAML file from hurting the controller that builds it. Nesting (see
// util/yaml-nesting.ts): the parser, the printer and every transformer recurse once per level.
// Aliases: a "billion laughs" document of a few hundred bytes expands to 10^9 nodes; go-yaml v3's
// own heuristic (and message) refuses it after a thousand or so nodes.
import { MAX_YAML_NESTING, tooDeepMessage } from "../../util/yaml-nesting.js";

export const MAX_NESTING_DEPTH = MAX_YAML_NESTING;

export const tooDeep = () => tooDeepMessage("document");

export const EXCESSIVE_ALIASING = "document contains excessive aliasing";

/** go-yaml v3's rule: most of what was decoded came from expanding aliases. */
export function excessiveAliasing(decoded: number, fromAliases: number): boolean {
  if (fromAliases <= 100 || decoded <= 1000) return false;
  const low = 400_000;
  const high = 4_000_000;
  const allowed = decoded <= low ? 0.99 : decoded >= high ? 0.1 : 0.99 - 0.89 * ((decoded - low) / (high - low));
  return fromAliases / decoded > allowed;
}
