import { describe, expect, it } from "vitest";
import type { KubeObject, ManagedFieldsEntry } from "../../api/meta/object.js";
import type { Cluster } from "../../kube/cluster.js";
import { type Change, KindWatch, type KindWatchOptions } from "./kind-watch.js";

const G = "kustomize.toolkit.fluxcd.io";
const FM = "kustomize-controller";
const entry = (manager: string, time: string, fields: object): ManagedFieldsEntry => ({
  manager,
  operation: manager === FM ? "Apply" : "Update",
  time,
  fieldsV1: fields as Record<string, unknown>,
});
const cm = (name: string, rv: string, managedFields: ManagedFieldsEntry[]): KubeObject => ({
  apiVersion: "meta.k8s.io/v1",
  kind: "PartialObjectMetadata",
  metadata: {
    name,
    namespace: "apps",
    uid: `uid-${name}`,
    resourceVersion: rv,
    labels: { [`${G}/name`]: "ks", [`${G}/namespace`]: "flux-system" },
    managedFields,
  },
});
const applied = (name: string) => cm(name, "1", [entry(FM, "2026-01-01T00:00:00Z", { "f:data": { "f:a": {} } })]);

/**
 * A cluster whose lists return the given pages in turn and whose watch streams play the given lines
 * in turn (then hang until aborted): enough for the Watcher under a KindWatch.
 */
function fakeCluster(lists: KubeObject[][], streams: object[][]) {
  const queries: Record<string, unknown>[] = [];
  const client = {
    listAll: async () => ({ items: lists.shift() ?? [], resourceVersion: "100" }),
    stream: async (_path: string, query: Record<string, unknown>, signal: AbortSignal) => {
      queries.push(query);
      const lines = streams.shift();
      return {
        body: (async function* () {
          for (const l of lines ?? []) yield Buffer.from(`${JSON.stringify(l)}\n`);
          await new Promise((r) => signal.addEventListener("abort", r));
        })(),
      };
    },
  };
  const mapping = { group: "", version: "v1", kind: "ConfigMap", resource: "configmaps", namespaced: true, verbs: [] };
  return { cluster: { name: "fake", client, mapping: async () => mapping } as unknown as Cluster, queries };
}

function start(cluster: Cluster, onJudged?: KindWatchOptions["onJudged"], baseline?: KindWatchOptions["baseline"]) {
  const changes: Change[] = [];
  const budget = { used: 0, max: 100 };
  const watch = new KindWatch({
    cluster,
    gvk: { group: "", version: "v1", kind: "ConfigMap" },
    labelGroup: G,
    own: { manager: FM, operation: "Apply" },
    exemption: () => undefined,
    budget,
    onChange: (c) => changes.push(c),
    onError: () => {},
    onOverBudget: () => {},
    onJudged,
    ...(baseline ? { baseline } : {}),
  });
  watch.start();
  return { watch, changes, budget };
}
const settle = () => new Promise((r) => setTimeout(r, 50));

describe("KindWatch", () => {
  it("reports an edit by another and a deletion with the owner and inventory id, not the initial list, additions or others' annotations", async () => {
    const edited = cm("a", "2", [
      entry(FM, "2026-01-01T00:00:00Z", {}),
      entry("kubectl-edit", "2026-01-01T00:01:00Z", { "f:data": { "f:a": {} } }),
    ]);
    const annotated = cm("b", "3", [
      entry(FM, "2026-01-01T00:00:00Z", { "f:data": { "f:a": {} } }),
      entry("kubectl-annotate", "2026-01-01T00:01:00Z", { "f:metadata": { "f:annotations": { "f:note": {} } } }),
    ]);
    const { cluster, queries } = fakeCluster(
      [[applied("a"), applied("b")]],
      [
        [
          { type: "ADDED", object: applied("c") },
          { type: "MODIFIED", object: annotated },
          { type: "MODIFIED", object: edited },
          { type: "DELETED", object: applied("b") },
        ],
      ],
    );
    const { watch, changes, budget } = start(cluster);
    await settle();
    expect(queries[0]).toMatchObject({ watch: 1, labelSelector: `${G}/name,${G}/namespace`, resourceVersion: "100" });
    expect(changes.map((c) => [c.type, c.owner, c.id, c.why])).toEqual([
      ["MODIFIED", "flux-system/ks", "apps_a__ConfigMap", "edited by kubectl-edit"],
      ["DELETED", "flux-system/ks", "apps_b__ConfigMap", "deleted"],
    ]);
    expect(changes[0]).toMatchObject({ uid: "uid-a", resourceVersion: "2", manager: "kubectl-edit" });
    // A deletion carries its name as our own deletes are recorded (kube/recent-writes.ts).
    expect(changes[1]).toMatchObject({ uid: "uid-b", ref: "/configmaps/apps/b" });
    expect(budget.used).toBe(2); // a and c
    await watch.stop();
    expect(budget.used).toBe(0);
  });

  it("after 410 Gone relists and reports what changed or went while events were lost", async () => {
    const removed = cm("a", "5", [entry(FM, "2026-01-01T00:00:00Z", {})]);
    const { cluster } = fakeCluster(
      [
        [applied("a"), applied("b")],
        [removed, applied("new")],
      ],
      [[{ type: "ERROR", object: { kind: "Status", code: 410, reason: "Expired", message: "too old" } }]],
    );
    const { watch, changes, budget } = start(cluster);
    await settle();
    expect(changes.map((c) => [c.type, c.id, c.why])).toEqual([
      ["MODIFIED", "apps_a__ConfigMap", "fields removed"],
      ["DELETED", "apps_b__ConfigMap", "deleted (found on relist)"],
    ]);
    expect(changes[1]).toMatchObject({ ref: "/configmaps/apps/b", uid: undefined });
    expect(budget.used).toBe(2); // a and new
    await watch.stop();
  });

  it("replacing another watch (a rotated credential), judges its first list against what that one tracked", async () => {
    const old = start(fakeCluster([[applied("a"), applied("b")]], [[]]).cluster);
    await old.watch.firstListed;
    // Between the old watch's stop and the new one's list: a edited by another, b deleted.
    const edited = cm("a", "2", [
      entry(FM, "2026-01-01T00:00:00Z", {}),
      entry("kubectl-patch", "2026-01-01T00:01:00Z", { "f:data": { "f:a": {} } }),
    ]);
    const { cluster } = fakeCluster([[edited]], [[]]);
    const next = start(cluster, undefined, old.watch.snapshot());
    await settle(); // its watch stream opened: stop() aborts it
    await old.watch.stop();
    await next.watch.firstListed;
    expect(next.changes.map((c) => [c.type, c.id, c.why])).toEqual([
      ["MODIFIED", "apps_a__ConfigMap", "edited by kubectl-patch"],
      ["DELETED", "apps_b__ConfigMap", "deleted (found on relist)"],
    ]);
    expect(next.budget.used).toBe(1);
    await settle();
    await next.watch.stop();
  });

  it("says it has listed once its first list is its baseline, and not before", async () => {
    let list!: (items: KubeObject[]) => void;
    const { cluster } = fakeCluster([], [[]]);
    const client = (cluster as unknown as { client: { listAll: unknown } }).client;
    client.listAll = () => new Promise((r) => (list = (items) => r({ items, resourceVersion: "100" })));
    const { watch, budget } = start(cluster);
    let listed = false;
    void watch.firstListed.then(() => (listed = true));
    await settle();
    expect(listed).toBe(false);
    list([applied("a")]);
    await watch.firstListed;
    expect(budget.used).toBe(1); // the baseline is tracked before it says so
    await settle(); // its watch stream opened: stop() aborts it
    await watch.stop();
  });

  it("says how it judged each edit, a trigger or not, with the object's resourceVersion", async () => {
    const annotated = cm("b", "3", [
      entry(FM, "2026-01-01T00:00:00Z", { "f:data": { "f:a": {} } }),
      entry("barrier", "2026-01-01T00:01:00Z", { "f:metadata": { "f:annotations": { "f:note": {} } } }),
    ]);
    const edited = cm("a", "4", [
      entry(FM, "2026-01-01T00:00:00Z", {}),
      entry("hand", "2026-01-01T00:01:00Z", { "f:data": { "f:a": {} } }),
    ]);
    const { cluster } = fakeCluster(
      [[applied("a"), applied("b")]],
      [
        [
          { type: "MODIFIED", object: annotated },
          { type: "MODIFIED", object: edited },
        ],
      ],
    );
    const judged: unknown[] = [];
    const { watch } = start(cluster, (j) => judged.push(j));
    await settle();
    expect(judged).toEqual([
      {
        id: "apps_b__ConfigMap",
        owner: "flux-system/ks",
        resourceVersion: "3",
        trigger: false,
        why: "our fields unchanged",
      },
      { id: "apps_a__ConfigMap", owner: "flux-system/ks", resourceVersion: "4", trigger: true, why: "edited by hand" },
    ]);
    await watch.stop();
  });
});
