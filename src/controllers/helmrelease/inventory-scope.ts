// Which of a release's kinds are cluster-scoped, for the inventory's empty namespace: asked of the
// target cluster's discovery (cached per group-version, so an idle reconcile costs no request after
// the first), falling back to the kinds charts commonly hold when discovery can't say — a kind whose
// CRD the release itself installs may not be served yet, and a tenant identity may be refused.
import type { Cluster } from "../../kube/cluster.js";
import { isClusterScopedKind } from "./release-status.js";
import { manifestObjects, type StoredRelease } from "./storage/release.js";

export type ScopeOf = (apiVersion: string, kind: string) => boolean;

export async function clusterScopeOf(target: Cluster, release: StoredRelease | undefined): Promise<ScopeOf> {
  const known = new Map<string, boolean>();
  const key = (apiVersion: string, kind: string) => `${apiVersion} ${kind}`;
  const kinds = new Set(
    (release ? manifestObjects(release) : []).map((o) => key(String(o.apiVersion ?? ""), String(o.kind ?? ""))),
  );
  await Promise.all(
    [...kinds].map(async (k) => {
      const [apiVersion, kind] = k.split(" ") as [string, string];
      const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
      try {
        const m = await target.discovery.mapping({ group: group!, version: version!, kind });
        known.set(k, !m.namespaced);
      } catch {
        // Not served (yet) or not visible to this identity: the common kinds decide.
      }
    }),
  );
  return (apiVersion, kind) => known.get(key(apiVersion, kind)) ?? isClusterScopedKind(kind);
}
