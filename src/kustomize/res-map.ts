// The resources of a build so far, and how YAML documents become resources. Every generator,
// transformer and the helm inflater take a ResMap, so it lives apart from the recursion in accumulate.ts.
import { KustomizeError } from "./errors.js";
import {
  DEFAULT_CONFIG,
  defaultConfig,
  emptyConfig,
  mergeConfig,
  type TransformerConfig,
} from "./transformers/config.js";
import { addVar, type Var } from "./transformers/vars.js";
import { describeOrigin, identity, type JsonObject, type Origin, type Resource, resId } from "./resource.js";
import type { ParsedDocument } from "./yaml/parse.js";

/** Where the two objects of one id come from, and what to do about it. */
function duplicateHint(first: Origin, second: Origin): string {
  if (first.file !== second.file)
    return `it is defined twice, in ${describeOrigin(first)} and ${describeOrigin(second)}; remove one of them`;
  // One document met twice: a file listed twice, reached through two bases (a diamond), or a List repeating an item.
  if (first.index === second.index)
    return `${describeOrigin(second)} is met twice: its file is listed twice or reached through two bases, or it is a List holding the object twice`;
  return `it is defined twice, in ${second.file} (documents ${first.index + 1} and ${second.index + 1}); remove one of them`;
}

/** An ordered set of resources that refuses two objects with the same id. */
export class ResMap {
  readonly list: Resource[] = [];
  /**
   * The transformer configuration merged so far, as kustomize's accumulator holds it: unset (empty)
   * until the first included kustomization's or this kustomization's own is merged. Merge order
   * matters (a generic field spec met after a specific one is dropped), so it is kept as kustomize's.
   */
  config?: TransformerConfig;

  /** The vars declared so far, in this kustomization and those it includes. */
  vars?: Var[];

  /** The configuration to transform with. */
  get transformerConfig(): TransformerConfig {
    return this.config ?? DEFAULT_CONFIG;
  }

  /** Merges a configuration in: an included kustomization's, or a kustomization's own. */
  mergeConfig(other: TransformerConfig | undefined, where: string): void {
    if (!other || other === this.config) return;
    if (other === DEFAULT_CONFIG && (this.config === undefined || this.config === DEFAULT_CONFIG)) {
      this.config = DEFAULT_CONFIG; // the common case, shared and never modified
      return;
    }
    const into =
      this.config === undefined ? emptyConfig() : this.config === DEFAULT_CONFIG ? defaultConfig() : this.config;
    mergeConfig(into, other, where);
    this.config = into;
  }

  add(r: Resource, kustomizationFile: string): void {
    const id = identity(r);
    const existing = this.list.find((x) => identity(x) === id);
    if (existing) {
      throw new KustomizeError(
        `${kustomizationFile}: may not add resource with an already registered id: ${resId(r)} — ${duplicateHint(existing.origin, r.origin)}`,
      );
    }
    this.list.push(r);
  }

  addAll(other: ResMap, kustomizationFile: string): void {
    for (const r of other.list) this.add(r, kustomizationFile);
    this.mergeConfig(other.config, kustomizationFile);
    for (const v of other.vars ?? []) addVar(this, v, kustomizationFile);
  }
}

/** The objects of parsed YAML documents (`kind: List` documents give their items), each checked. */
export function resourcesFromDocuments(docs: ParsedDocument[], display: string): Resource[] {
  const out: Resource[] = [];
  for (const doc of docs) {
    const v = doc.value;
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      throw new KustomizeError(
        `${display} (document ${doc.index + 1}): expected a Kubernetes object, got ${Array.isArray(v) ? "a list" : typeof v}`,
      );
    }
    // `kind: List` documents carry their objects in `items`.
    const items =
      typeof v.kind === "string" && v.kind.endsWith("List") && Array.isArray(v.items) ? (v.items as JsonObject[]) : [v];
    for (const obj of items) {
      // kustomize needs a kind; an object without apiVersion builds (a kustomize-only custom kind).
      if (!obj || typeof obj !== "object" || typeof obj.kind !== "string" || obj.kind === "") {
        throw new KustomizeError(`${display} (document ${doc.index + 1}): missing kind in object`);
      }
      const metadata = obj.metadata as JsonObject | undefined;
      if (!metadata || typeof metadata.name !== "string" || metadata.name === "") {
        throw new KustomizeError(`${display} (document ${doc.index + 1}): missing metadata.name in ${obj.kind} object`);
      }
      out.push({ obj: obj as JsonObject, origin: { file: display, index: doc.index }, previous: [] });
    }
  }
  return out;
}
