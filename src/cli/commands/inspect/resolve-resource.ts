// kubectl's way of naming an object on the command line — `deployment/podinfo`, `deploy podinfo`,
// `HelmRelease/podinfo` — resolved through the API server's discovery (kind, plural, singular or short
// name, case-insensitively; the core group and then the others, as kubectl prefers).
import { apiPath } from "../../../api/paths.js";
import type { Cluster } from "../../../kube/cluster.js";
import { parseApiVersion } from "../../../kube/object.js";
import { UsageError } from "../../errors.js";

interface ApiResource {
  name: string;
  singularName?: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
}

export interface Resolved {
  apiVersion: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

export async function resolveResource(cluster: Cluster, typed: string): Promise<Resolved> {
  const want = typed.toLowerCase();
  const lists: { gv: string; resources: ApiResource[] }[] = [];
  lists.push({
    gv: "v1",
    resources: (await cluster.client.get<{ resources: ApiResource[] }>(apiPath({ group: "", version: "v1" })))
      .resources,
  });
  const groups = await cluster.client.get<{ groups: { preferredVersion: { groupVersion: string } }[] }>("/apis");
  for (const g of groups.groups) {
    const gv = g.preferredVersion.groupVersion;
    lists.push({
      gv,
      resources: (await cluster.client.get<{ resources: ApiResource[] }>(apiPath(parseApiVersion(gv)))).resources,
    });
  }
  for (const { gv, resources } of lists)
    for (const r of resources) {
      if (r.name.includes("/")) continue;
      const names = [r.name, r.singularName ?? "", r.kind.toLowerCase(), ...(r.shortNames ?? [])];
      if (names.includes(want)) return { apiVersion: gv, kind: r.kind, plural: r.name, namespaced: r.namespaced };
    }
  throw new UsageError(`the server doesn't have a resource type "${typed}"`);
}
