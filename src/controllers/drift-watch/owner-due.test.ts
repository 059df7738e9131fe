import { describe, expect, it } from "vitest";
import { RecentWrites } from "../../kube/recent-writes.js";
import type { Logger } from "../../runtime/logger.js";
import { type DriftChange, type DueDeps, freshOwner, type InventoryOwner, ownerDue } from "./owner-due.js";

const CM = "apps_settings__ConfigMap";
const WEB = "apps_web_apps_Deployment";
const owner = (ids: string[] | null): InventoryOwner => ({
  apiVersion: "kustomize.toolkit.fluxcd.io/v1",
  kind: "Kustomization",
  metadata: { name: "apps", namespace: "flux-system" },
  status: { inventory: (ids ? { entries: ids.map((id) => ({ id, v: "v1" })) } : {}) as never },
});
const edit = (id = CM, extra: Partial<DriftChange> = {}): DriftChange => ({
  type: "MODIFIED",
  owner: "flux-system/apps",
  id,
  uid: `uid-${id}`,
  resourceVersion: "7",
  why: "edited by hand",
  manager: "hand",
  cluster: "mgmt",
  ...extra,
});
const deletion = (id = WEB, extra: Partial<DriftChange> = {}) =>
  edit(id, { type: "DELETED", resourceVersion: undefined, manager: undefined, why: "deleted", ...extra });

function setup(over: Partial<DueDeps<InventoryOwner>> = {}) {
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const log =
    (level: string) =>
    (msg: string, fields: Record<string, unknown> = {}) =>
      void lines.push({ level, msg, fields });
  const queued: string[] = [];
  const writes = new RecentWrites();
  const due = ownerDue<InventoryOwner>({
    log: { info: log("info"), debug: log("debug"), error: log("error") } as unknown as Logger,
    baseDelayMs: 1000,
    cached: () => owner([CM, WEB]),
    fresh: async (_k, cached) => cached,
    idle: () => false,
    clusterOf: () => "mgmt",
    enqueue: (key) => void queued.push(key),
    stopped: () => false,
    recentWrites: writes,
    ...over,
  });
  return { due, queued, lines, writes };
}

describe("an owner's changes when due", () => {
  it("an edit by someone else of an object in the inventory queues the owner and says why", async () => {
    const { due, queued, lines } = setup();
    expect(await due("flux-system/apps", [edit()], false, 1000)).toBe(true);
    expect(queued).toEqual(["flux-system/apps"]);
    expect(lines).toEqual([
      {
        level: "info",
        msg: "drift: reconciling now",
        fields: { namespace: "flux-system", name: "apps", changes: [`${CM} edited by hand`] },
      },
    ]);
  });

  it("an owner whose status has an empty inventory ({}) queues nothing and throws nothing", async () => {
    const { due, queued } = setup({ cached: () => owner(null) });
    expect(await due("flux-system/apps", [edit(), deletion()], false, 1000)).toBe(false);
    expect(queued).toEqual([]);
  });

  it("our own writes and deletes (a re-apply, a prune, a force-recreate) are not drift", async () => {
    const { due, queued, writes } = setup();
    writes.record({ metadata: { uid: `uid-${CM}`, resourceVersion: "7" } });
    writes.recordDelete("/apis/apps/v1/namespaces/apps/deployments/web", { details: { uid: `uid-${WEB}` } });
    expect(await due("flux-system/apps", [edit(), deletion()], false, 1000)).toBe(false);
    // Found gone on a relist (no uid): known by name.
    expect(
      await due("flux-system/apps", [deletion(WEB, { uid: undefined, ref: "apps/deployments/apps/web" })], false, 1000),
    ).toBe(false);
    expect(queued).toEqual([]);
  });

  it("a deletion counts only if the owner read fresh still lists it: helm removed it, the informer's copy is stale", async () => {
    const reads: string[] = [];
    const { due, queued } = setup({
      fresh: async (key) => (reads.push(key), owner([CM])),
    });
    expect(await due("flux-system/apps", [deletion()], false, 1000)).toBe(false);
    expect(reads).toEqual(["flux-system/apps"]);
    expect(queued).toEqual([]);
  });

  it("a change on another cluster than the owner's, or of an object its inventory does not name, is not drift", async () => {
    const { due, queued } = setup();
    expect(
      await due("flux-system/apps", [edit(CM, { cluster: "tenant1" }), edit("apps_x__ConfigMap")], false, 1000),
    ).toBe(false);
    expect(queued).toEqual([]);
  });

  it("backing off says so once, naming the object and the competing manager, until the backoff starts over", async () => {
    const { due, lines } = setup();
    const hpa = edit(WEB, { manager: "kube-controller-manager", why: "edited by kube-controller-manager" });
    for (const delay of [2000, 4000, 1000, 2000]) await due("flux-system/apps", [hpa], false, delay);
    const warnings = lines.filter((l) => l.msg.includes("backing off"));
    expect(warnings.map((l) => l.fields)).toEqual([
      { namespace: "flux-system", name: "apps", object: WEB, manager: "kube-controller-manager", delay: "2s" },
      { namespace: "flux-system", name: "apps", object: WEB, manager: "kube-controller-manager", delay: "2s" },
    ]);
  });

  it("an error while judging is logged, never thrown (it runs in a timer)", async () => {
    const { due, lines } = setup({
      cached: () => {
        throw new Error("informer gone");
      },
    });
    await expect(due("flux-system/apps", [edit()], false, 1000)).resolves.toBe(false);
    expect(lines).toEqual([
      {
        level: "error",
        msg: "drift: judging changes failed",
        fields: { owner: "flux-system/apps", error: "Error: informer gone" },
      },
    ]);
  });

  it("a failing fresh read of the owner falls back to the cached copy", async () => {
    const debug: string[] = [];
    const log = { debug: (m: string) => debug.push(m) } as unknown as Logger;
    const read = freshOwner<InventoryOwner>(async () => {
      throw new Error("unreachable");
    }, log);
    const cached = owner([WEB]);
    expect(await read("flux-system/apps", cached)).toBe(cached);
    expect(debug).toEqual(["drift: owner not read, judging from the cache"]);
    expect(await freshOwner<InventoryOwner>(async () => undefined, log)("flux-system/apps", cached)).toBeUndefined();
  });
});
