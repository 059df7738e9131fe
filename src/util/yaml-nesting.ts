// How deeply a YAML text nests its collections, measured on the `yaml` library's concrete syntax
// tree (which its parser builds without recursion) before anything recursive reads the text: the
// library's composer, and whatever walks the result, recurse once per level, and V8 aborts the
// whole process — not just the parse — when a regular expression is compiled at the edge of the
// stack, as ten thousand nested `[` in a tenant's file can make happen.
import { type CST, parse, Parser } from "yaml";
import { FlotillaError } from "./errors.js";

export class YamlTooDeepError extends FlotillaError {
  override name = "YamlTooDeepError";
}

/** Deepest nesting accepted (go-yaml allows 10 000; real manifests, charts and kubeconfigs use < 50). */
export const MAX_YAML_NESTING = 256;

export const tooDeepMessage = (what: string) =>
  `${what} nests collections deeper than ${MAX_YAML_NESTING} levels, flotilla's limit`;

/** Offset of the first collection nested deeper than the limit within one top-level token, or undefined. */
export function tooDeepOffset(token: CST.Token): number | undefined {
  const stack: [CST.Token | undefined, number][] = [[token, 0]];
  while (stack.length) {
    const [t, depth] = stack.pop()!;
    if (!t) continue;
    if (t.type === "document") stack.push([t.value, depth]);
    else if (t.type === "block-map" || t.type === "block-seq" || t.type === "flow-collection") {
      if (depth >= MAX_YAML_NESTING) return t.offset;
      for (const item of t.items) stack.push([(item as { key?: CST.Token }).key, depth + 1], [item.value, depth + 1]);
    }
  }
  return undefined;
}

/** Offset of the first collection nested too deep in `text`, or undefined: call before `yaml`'s parse(). */
export function yamlTooDeepAt(text: string): number | undefined {
  for (const token of new Parser().parse(text)) {
    const at = tooDeepOffset(token);
    if (at !== undefined) return at;
  }
  return undefined;
}

/** `yaml`'s parse() (one document, at most 100 aliases), once the nesting is known to be within the limit. */
export function parseBoundedYaml(text: string, what: string): unknown {
  if (yamlTooDeepAt(text) !== undefined) throw new YamlTooDeepError(tooDeepMessage(what));
  return parse(text);
}
