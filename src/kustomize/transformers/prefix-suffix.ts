// namePrefix / nameSuffix: on metadata.name of everything but CRDs, Namespaces and APIServices.
import type { ResMap } from "../res-map.js";
import { groupVersion, meta, nameOf } from "../resource.js";
import { originalKind, storePreviousId } from "./rename.js";

const SKIPPED = (kind: string, group: string) =>
  kind === "CustomResourceDefinition" ||
  kind === "Namespace" ||
  (kind === "APIService" && group === "apiregistration.k8s.io");

export function transformPrefixSuffix(resmap: ResMap, prefix = "", suffix = ""): void {
  if (!prefix && !suffix) return;
  for (const r of resmap.list) {
    if (SKIPPED(originalKind(r), groupVersion(r).group)) continue;
    // Each level's affixes are remembered: name references prefer a target with the referrer's.
    if (prefix) (r.prefixes ??= []).push(prefix);
    if (suffix) (r.suffixes ??= []).push(suffix);
    storePreviousId(r);
    meta(r).name = `${prefix}${nameOf(r)}${suffix}`;
  }
}
