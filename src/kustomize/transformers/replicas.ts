// replicas: set spec.replicas of the named workloads.
import type { ResMap } from "../res-map.js";
import { KustomizeError } from "../errors.js";
import type { Replica } from "../kustomization-file.js";
import { kindOf, nameOf } from "../resource.js";
import { isQuoted } from "../yaml/scalar-style.js";

const SCALABLE = new Set(["Deployment", "ReplicationController", "ReplicaSet", "StatefulSet"]);

export function transformReplicas(resmap: ResMap, replicas: Replica[] | undefined, where: string): void {
  for (const rep of replicas ?? []) {
    if (typeof rep.count !== "number")
      throw new KustomizeError(`${where}: replicas entry ${rep.name} needs a numeric count`);
    // Like kustomize, any name the object has had matches: the original, a base's prefixed one, the current.
    const targets = resmap.list.filter(
      (r) => SCALABLE.has(kindOf(r)) && (nameOf(r) === rep.name || r.previous.some((p) => p.name === rep.name)),
    );
    if (targets.length === 0) {
      throw new KustomizeError(
        `${where}: replicas entry "${rep.name}" matches no Deployment, StatefulSet, ReplicaSet or ReplicationController`,
      );
    }
    for (const r of targets) {
      const spec = (r.obj.spec ??= {}) as Record<string, unknown>;
      // kyaml sets the text and keeps the field's style: a quoted `replicas: "3"` becomes "5".
      spec.replicas = spec.replicas !== undefined && isQuoted(spec, "replicas") ? String(rep.count) : rep.count;
    }
  }
}
