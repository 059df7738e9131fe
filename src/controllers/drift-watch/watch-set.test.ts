import { describe, expect, it } from "vitest";
import type { Cluster } from "../../kube/cluster.js";
import { ForbiddenError } from "../../kube/errors.js";
import { DriftWatchSet, type WatchedCluster } from "./watch-set.js";

// A cluster that is never reachable: each watch fails and backs off until stopped.
const offline = (key: string): WatchedCluster => ({
  key,
  name: key,
  cluster: { name: key, mapping: () => Promise.reject(new Error("offline")) } as unknown as Cluster,
});
// A credential bound to namespaces: a cluster-wide list is refused (403), a namespace's lists (empty);
// its watch streams stay open until aborted.
const scoped = (key: string): WatchedCluster => {
  const refused = (path: string) =>
    new ForbiddenError(key, 403, "Forbidden", { message: "forbidden" }, { method: "GET", path });
  const client = {
    listAll: (path: string) =>
      path.includes("/namespaces/")
        ? Promise.resolve({ items: [], resourceVersion: "1" })
        : Promise.reject(refused(path)),
    stream: (_path: string, _query: unknown, signal: AbortSignal) =>
      new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))),
  };
  const mapping = { group: "", version: "v1", kind: "ConfigMap", resource: "configmaps", namespaced: true };
  return {
    key,
    name: key,
    cluster: { name: key, client, mapping: () => Promise.resolve(mapping) } as unknown as Cluster,
  };
};
const CM = { group: "", version: "v1", kind: "ConfigMap" };
const DEPLOY = { group: "apps", version: "v1", kind: "Deployment" };
const SECRET = { group: "", version: "v1", kind: "Secret" };

function set(maxKinds?: number) {
  const limits: string[] = [];
  const errors: string[] = [];
  const scopedTo: string[] = [];
  const s = new DriftWatchSet({
    labelGroup: "kustomize.toolkit.fluxcd.io",
    own: { manager: "kustomize-controller", operation: "Apply" },
    exemption: () => undefined,
    onChange: () => {},
    onError: (t, gvk, _err, first) => first && errors.push(`${t.name} ${gvk.kind}`),
    onLimit: (t, what) => limits.push(`${t.name}: ${what}`),
    onScoped: (t) => scopedTo.push(t.name),
    ...(maxKinds ? { maxKinds } : {}),
  });
  return { s, limits, errors, scopedTo };
}

describe("DriftWatchSet", () => {
  it("one watch per (cluster, kind), shared by owners, stopped when the last owner lets go", async () => {
    const { s } = set();
    const mgmt = offline("mgmt");
    const tenant = offline("tenant1");
    s.want("ns/a", mgmt, [CM, DEPLOY]);
    s.want("ns/b", mgmt, [CM]);
    s.want("ns/c", tenant, [CM]);
    expect(s.stats()).toEqual([
      { cluster: "mgmt", watches: 2, tracked: 0 },
      { cluster: "tenant1", watches: 1, tracked: 0 },
    ]);
    s.want("ns/a", mgmt, [CM]); // its Deployment went from the inventory
    expect(s.stats()[0]).toEqual({ cluster: "mgmt", watches: 1, tracked: 0 });
    s.want("ns/a", undefined, []);
    s.want("ns/b", mgmt, []);
    expect(s.stats().map((c) => c.cluster)).toEqual(["tenant1"]);
    expect(s.ownersOn("tenant1")).toEqual(["ns/c"]);
    s.want("ns/c", mgmt, [CM]); // moved to another cluster
    expect(s.stats()).toEqual([{ cluster: "mgmt", watches: 1, tracked: 0 }]);
    expect(s.clusterOf("ns/c")).toBe("mgmt");
    await s.stop();
    expect(s.stats()).toEqual([]);
  });

  it("watches at most maxKinds kinds per cluster, says so once, and starts a waiting kind when a slot frees", async () => {
    const { s, limits } = set(2);
    const mgmt = offline("mgmt");
    s.want("ns/a", mgmt, [CM, DEPLOY, SECRET]);
    s.want("ns/b", mgmt, [CM, DEPLOY, SECRET]);
    expect(s.stats()[0]!.watches).toBe(2);
    expect(limits).toEqual(["mgmt: more than 2 kinds: the rest not watched"]);
    s.want("ns/a", mgmt, [CM, SECRET]);
    s.want("ns/b", mgmt, [CM, SECRET]);
    expect(s.stats()[0]!.watches).toBe(2);
    await s.stop();
  });

  it("a failing cluster is reported once per watch, and stopping does not wait for its backoff", async () => {
    const { s, errors } = set();
    s.want("ns/a", offline("gone"), [CM]);
    await new Promise((r) => setTimeout(r, 50));
    expect(errors).toEqual(["gone ConfigMap"]);
    const started = Date.now();
    await s.stop();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("says an owner's watches listed once the per-namespace watches replacing a refused cluster-wide one have", async () => {
    const { s, scopedTo } = set();
    s.want("ns/a", scoped("tenant1"), [{ ...CM, namespaces: ["apps", "web"] }]);
    await s.listed("ns/a");
    expect(scopedTo).toEqual(["tenant1"]);
    expect(s.stats()).toEqual([{ cluster: "tenant1", watches: 2, tracked: 0 }]);
    await s.stop();
  });
});
