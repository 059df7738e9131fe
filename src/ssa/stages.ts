// Apply stages: cluster definitions (CRDs, Namespaces, ClusterRoles) are applied and waited for
// first, then `*Class` kinds, then everything else — so later objects find their kinds and
// namespaces in place.
import type { KubeObject } from "../api/meta/object.js";

export type Stage = "definitions" | "classes" | "resources";

export function stageOf(obj: Pick<KubeObject, "apiVersion" | "kind">): Stage {
  const kind = obj.kind.toLowerCase();
  if (kind === "customresourcedefinition" && obj.apiVersion.startsWith("apiextensions.k8s.io/")) return "definitions";
  if (kind === "namespace" && obj.apiVersion === "v1") return "definitions";
  if (kind === "clusterrole" && obj.apiVersion.startsWith("rbac.authorization.k8s.io/")) return "definitions";
  if (obj.kind.endsWith("Class")) return "classes";
  return "resources";
}

export function splitStages<T extends Pick<KubeObject, "apiVersion" | "kind">>(objects: T[]): Record<Stage, T[]> {
  const out: Record<Stage, T[]> = { definitions: [], classes: [], resources: [] };
  for (const o of objects) out[stageOf(o)].push(o);
  return out;
}
