// commonLabels, labels and commonAnnotations: metadata plus, where kustomize does it, selectors and
// pod templates. commonLabels = a labels entry with includeSelectors.
import type { ResMap } from "../res-map.js";
import type { Label } from "../kustomization-file.js";
import type { JsonObject } from "../resource.js";
import { defaultQuoted, notesOf, type ScalarNote, setNote } from "../yaml/scalar-style.js";
import { sharedAt, type SharedWrites, writeShared } from "../yaml/shared-nodes.js";
import { applySpecs, type FieldSpec } from "./field-spec.js";
import { mergeFieldSpecs } from "./config.js";

const METADATA: FieldSpec = { path: "metadata/labels", create: true };

/**
 * The style a written field keeps: kyaml's FieldSetter keeps a field's node style, and a node with
 * none (plain, or made by a transformer) reads as go-yaml's default for its new value.
 */
function keptStyle(map: JsonObject, key: string): boolean {
  const n = notesOf(map)?.get(key);
  return n?.quoted ?? (n?.shared ? false : defaultQuoted(map[key]));
}

/**
 * Sets each pair in every map the specs reach, as kyaml does: per resource and key one value node,
 * which every field it creates holds (a later write to one changes all, scalar-style.ts), while a
 * field that exists takes a copy in its own style. The shared node ends with the style of the last
 * existing field written (kyaml sets the style on the shared node before copying it), and an
 * existing field that is itself a shared node changes everywhere that node is held.
 */
export function setPairs(resmap: ResMap, pairs: Record<string, string>, specs: FieldSpec[]): void {
  const entries = Object.entries(pairs).sort(([a], [b]) => (a < b ? -1 : 1));
  const maps: JsonObject[] = [];
  for (const r of resmap.list) {
    maps.length = 0;
    applySpecs([r], specs, (_r, parent, key) => {
      const map = parent[key];
      maps.push(map && typeof map === "object" && !Array.isArray(map) ? map : (parent[key] = {}));
    });
    if (!maps.length) continue;
    let writes: SharedWrites | undefined;
    for (const [k, v] of entries) {
      const value = String(v);
      const shared: ScalarNote = { shared: {} };
      for (const m of maps) {
        if (!Object.hasOwn(m, k)) {
          m[k] = value;
          setNote(m, k, shared);
          continue;
        }
        const old = sharedAt(m, k);
        if (old === shared.shared) continue;
        const quoted = keptStyle(m, k);
        if (quoted) shared.quoted = true;
        else delete shared.quoted;
        const note: ScalarNote = quoted ? { quoted } : {};
        if (old) note.shared = old;
        m[k] = value;
        setNote(m, k, note);
        if (old) (writes ??= new Map()).set(old, { value, note });
      }
    }
    if (writes) writeShared(r.obj, writes);
  }
}

/**
 * labels and commonLabels, over the fields the transformer configuration names (config.ts): a labels
 * entry's own fields, then the configuration's `labels`, then selectors or templates as it asks, merged
 * as kustomize merges field specs (one per path and kind).
 */
export function transformLabels(
  resmap: ResMap,
  labels: Label[] | undefined,
  commonLabels: Record<string, string> | undefined,
  where = "kustomization.yaml",
): void {
  const config = resmap.transformerConfig;
  for (const label of labels ?? []) {
    const specs = mergeFieldSpecs([...((label.fields ?? []) as FieldSpec[])], config.labels, where);
    if (label.includeSelectors) mergeFieldSpecs(specs, config.commonLabels, where);
    else {
      if (label.includeTemplates) mergeFieldSpecs(specs, config.templateLabels, where);
      if (label.includeVolumeClaimTemplates) mergeFieldSpecs(specs, config.volumeClaimTemplateLabels, where);
      mergeFieldSpecs(specs, [METADATA], where);
    }
    setPairs(resmap, label.pairs ?? {}, specs);
  }
  if (commonLabels && Object.keys(commonLabels).length) setPairs(resmap, commonLabels, config.commonLabels);
}

export function transformAnnotations(resmap: ResMap, annotations: Record<string, string> | undefined): void {
  if (annotations && Object.keys(annotations).length)
    setPairs(resmap, annotations, resmap.transformerConfig.commonAnnotations);
}

/** Pairs set at metadata/labels and metadata/annotations only, creating them (helm-controller's commonMetadata and origin labels). */
export function setMetadataPairs(
  resmap: ResMap,
  pairs: { labels?: Record<string, string>; annotations?: Record<string, string> },
): void {
  if (pairs.labels && Object.keys(pairs.labels).length) setPairs(resmap, pairs.labels, [METADATA]);
  if (pairs.annotations && Object.keys(pairs.annotations).length)
    setPairs(resmap, pairs.annotations, [{ path: "metadata/annotations", create: true }]);
}
