// replicas: set the replica count of the named workloads, at the fields the configuration names
// (kustomize's default: spec.replicas of Deployments, ReplicationControllers, ReplicaSets, StatefulSets).
import type { ResMap } from "../res-map.js";
import { KustomizeError } from "../errors.js";
import type { Replica } from "../kustomization-file.js";
import { groupVersion, kindOf, nameOf, type Resource } from "../resource.js";
import { isQuoted } from "../yaml/scalar-style.js";
import { type FieldSpec, splitPath, walkPath } from "./field-spec.js";

/** kustomize's GetMatchingResourcesByAnyId: the name and kind now or at any earlier id. */
function matches(r: Resource, name: string, fs: FieldSpec): boolean {
  const gv = groupVersion(r);
  if ((fs.group && fs.group !== gv.group) || (fs.version && fs.version !== gv.version)) return false;
  return [{ kind: kindOf(r), name: nameOf(r) }, ...r.previous].some(
    (id) => id.name === name && (!fs.kind || id.kind === fs.kind),
  );
}

export function transformReplicas(
  resmap: ResMap,
  replicas: Replica[] | undefined,
  where: string,
  specs: FieldSpec[] = resmap.transformerConfig.replicas,
): void {
  for (const rep of replicas ?? []) {
    if (typeof rep.count !== "number")
      throw new KustomizeError(`${where}: replicas entry ${rep.name} needs a numeric count`);
    let found = false;
    for (const fs of specs) {
      for (const r of resmap.list.filter((x) => matches(x, rep.name, fs))) {
        found = true;
        walkPath(r.obj, splitPath(fs.path), fs.create ?? false, (parent, key) => {
          // kyaml sets the text and keeps the field's style: a quoted `replicas: "3"` becomes "5".
          parent[key] = parent[key] !== undefined && isQuoted(parent, key) ? String(rep.count) : rep.count;
        });
      }
    }
    if (!found) {
      const kinds = [...new Set(specs.map((fs) => fs.kind || "object"))];
      const list = kinds.length > 1 ? `${kinds.slice(0, -1).join(", ")} or ${kinds.at(-1)}` : kinds[0];
      throw new KustomizeError(`${where}: replicas entry "${rep.name}" matches no ${list}`);
    }
  }
}
