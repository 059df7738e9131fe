// namePrefix / nameSuffix: on the fields the configuration names (kustomize's default: metadata.name
// of every kind), never on CRDs, Namespaces and APIServices. Objects are selected by the kind they
// were read with, as kustomize selects them.
import type { ResMap } from "../res-map.js";
import { groupVersion } from "../resource.js";
import { type FieldSpec, specMatches, splitPath, walkPath } from "./field-spec.js";
import { originalKind, storePreviousId } from "./rename.js";

const SKIPPED = (kind: string, group: string) =>
  kind === "CustomResourceDefinition" ||
  kind === "Namespace" ||
  (kind === "APIService" && group === "apiregistration.k8s.io");

export function affix(resmap: ResMap, value: string, specs: FieldSpec[], which: "prefixes" | "suffixes"): void {
  if (!value) return;
  for (const r of resmap.list) {
    if (SKIPPED(originalKind(r), groupVersion(r).group)) continue;
    for (const fs of specs) {
      if (!specMatches(fs, r, originalKind(r))) continue;
      if (fs.path === "metadata/name") {
        // Each level's affixes are remembered: name references prefer a target with the referrer's.
        (r[which] ??= []).push(value);
        storePreviousId(r);
      }
      walkPath(r.obj, splitPath(fs.path), false, (parent, key) => {
        const v = parent[key];
        if (typeof v === "string") parent[key] = which === "prefixes" ? `${value}${v}` : `${v}${value}`;
      });
    }
  }
}

export function transformPrefixSuffix(resmap: ResMap, prefix = "", suffix = ""): void {
  affix(resmap, prefix, resmap.transformerConfig.namePrefix, "prefixes");
  affix(resmap, suffix, resmap.transformerConfig.nameSuffix, "suffixes");
}
