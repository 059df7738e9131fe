// namePrefix / nameSuffix: on metadata.name of everything but CRDs, Namespaces and APIServices.
import type { ResMap } from "../res-map.js";
import { groupVersion, kindOf, nameOf } from "../resource.js";
import { rename } from "./rename.js";

const SKIPPED = (kind: string, group: string) =>
  kind === "CustomResourceDefinition" ||
  kind === "Namespace" ||
  (kind === "APIService" && group === "apiregistration.k8s.io");

export function transformPrefixSuffix(resmap: ResMap, prefix = "", suffix = ""): void {
  if (!prefix && !suffix) return;
  for (const r of resmap.list) {
    if (SKIPPED(kindOf(r), groupVersion(r).group)) continue;
    rename(r, { name: `${prefix}${nameOf(r)}${suffix}` });
  }
}
