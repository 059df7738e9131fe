// namespace: set metadata.namespace on every namespaced object (custom resources included), rename
// `kind: Namespace` objects, and point services and RoleBinding "default" subjects at it.
import type { ResMap } from "../res-map.js";
import { KustomizeError } from "../errors.js";
import {
  apiVersionOf,
  groupVersion,
  identity,
  type JsonObject,
  kindOf,
  meta,
  resId,
  type Resource,
} from "../resource.js";
import { DEFAULT_CONFIG } from "./config.js";
import { applySpecs, type FieldSpec } from "./field-spec.js";
import { storePreviousId } from "./rename.js";
import { isClusterScoped } from "./scope.js";

function setIn(obj: JsonObject, path: string[], value: string, create: boolean): void {
  let cur: JsonObject = obj;
  for (const p of path.slice(0, -1)) {
    const next = cur[p];
    if (next === undefined || next === null) {
      if (!create) return;
      cur[p] = {};
    } else if (typeof next !== "object" || Array.isArray(next)) return;
    cur = cur[p] as JsonObject;
  }
  const last = path[path.length - 1]!;
  if (cur[last] !== undefined || create) cur[last] = value;
}

export function transformNamespace(
  resmap: ResMap,
  namespace: string | undefined,
  where: string,
  specs: FieldSpec[] = resmap.transformerConfig.namespace,
): void {
  if (!namespace) return;
  for (const r of resmap.list) {
    const kind = kindOf(r);
    const { group } = groupVersion(r);
    if (
      meta(r).annotations &&
      (meta(r).annotations as JsonObject)["internal.config.kubernetes.io/helm-generated"] === "true"
    )
      continue;
    storePreviousId(r);
    if (kind === "Namespace" && apiVersionOf(r) === "v1") meta(r).name = namespace;
    else if (!isClusterScoped(kind, group)) meta(r).namespace = namespace;
    if (kind === "APIService" && group === "apiregistration.k8s.io")
      setIn(r.obj, ["spec", "service", "namespace"], namespace, true);
    if (kind === "CustomResourceDefinition" && group === "apiextensions.k8s.io") {
      setIn(r.obj, ["spec", "conversion", "webhook", "clientConfig", "service", "namespace"], namespace, false);
    }
    if ((kind === "RoleBinding" || kind === "ClusterRoleBinding") && Array.isArray(r.obj.subjects)) {
      for (const s of r.obj.subjects)
        if (s && typeof s === "object" && !Array.isArray(s) && s.name === "default") s.namespace = namespace;
    }
  }
  // Fields a configurations file adds to kustomize's three (which are handled above).
  // metadata/namespace is handled above for namespaced objects only, as kustomize's filter does.
  const extra = specs.filter(
    (fs) =>
      fs.path !== "metadata/namespace" &&
      !DEFAULT_CONFIG.namespace.some((d) => d.path === fs.path && d.kind === fs.kind && d.group === fs.group),
  );
  applySpecs(resmap.list, extra, (_r, parent, key) => {
    parent[key] = namespace;
  });
  checkConflicts(resmap.list);
  void where;
}

function checkConflicts(list: Resource[]): void {
  const seen = new Map<string, Resource>();
  for (const r of list) {
    const id = identity(r);
    if (seen.has(id))
      throw new KustomizeError(
        `namespace transformation produces ID conflict: ${resId(seen.get(id)!)} and ${resId(r)}`,
      );
    seen.set(id, r);
  }
}
