import { describe, expect, it } from "vitest";
import { deleteRef, deleteRefOfPath, RecentWrites } from "./recent-writes.js";

const obj = (uid: string, rv: string) => ({ metadata: { uid, resourceVersion: rv } });

describe("RecentWrites", () => {
  it("knows the exact versions written, not other versions of the object", () => {
    const w = new RecentWrites();
    w.record(obj("u1", "10"));
    expect(w.has("u1", "10")).toBe(true);
    expect(w.has("u1", "11")).toBe(false);
    expect(w.has(undefined, "10")).toBe(false);
  });

  it("ignores responses that are not objects with a uid and version", () => {
    const w = new RecentWrites();
    w.record("text");
    w.record(null);
    w.record({ kind: "Status" });
    expect(w.size).toBe(0);
  });

  it("keeps at most its bound, dropping the oldest, and forgets after its TTL", () => {
    let now = 0;
    const w = new RecentWrites(2, 1000, () => now);
    w.record(obj("a", "1"));
    w.record(obj("b", "1"));
    w.record(obj("c", "1"));
    expect([w.has("a", "1"), w.has("b", "1"), w.has("c", "1")]).toEqual([false, true, true]);
    now = 1500;
    expect(w.has("c", "1")).toBe(false);
    expect(w.size).toBe(0);
  });

  it("knows our own deletes by the uid the response carries, the deleted object or a Status naming it", () => {
    const w = new RecentWrites();
    w.recordDelete("/api/v1/namespaces/apps/configmaps/a", { kind: "Status", details: { name: "a", uid: "u-a" } });
    w.recordDelete("/apis/apps/v1/namespaces/apps/deployments/web", { kind: "Deployment", metadata: { uid: "u-w" } });
    expect(w.deleted("u-a", undefined)).toBe(true);
    expect(w.deleted("u-w", deleteRef("apps", "deployments", "apps", "web"))).toBe(true);
    // Someone else deleting the object we created again under that name: another uid.
    expect(w.deleted("u-w2", deleteRef("apps", "deployments", "apps", "web"))).toBe(false);
    expect(w.deleted("u-other", undefined)).toBe(false);
  });

  it("knows our own deletes by name for a short while: a deletion seen without a uid, or a response without one", () => {
    let now = 0;
    const w = new RecentWrites(100, 600_000, () => now, 30_000);
    w.recordDelete("/api/v1/namespaces/apps/configmaps/a", { kind: "Status", details: { uid: "u-a" } });
    w.recordDelete("/apis/rbac.authorization.k8s.io/v1/clusterroles/viewer", "");
    const cm = deleteRef("", "configmaps", "apps", "a");
    const role = deleteRef("rbac.authorization.k8s.io", "clusterroles", "", "viewer");
    expect(w.deleted(undefined, cm)).toBe(true); // found gone on a relist
    expect(w.deleted("u-any", role)).toBe(true); // our DELETE's response named no uid
    expect(w.deleted(undefined, deleteRef("", "configmaps", "apps", "b"))).toBe(false);
    now = 31_000;
    expect(w.deleted(undefined, cm)).toBe(false);
    expect(w.deleted("u-a", cm)).toBe(true); // the uid is kept as long as writes are
  });

  it("names an object's API path as group/resource/namespace/name, and nothing else", () => {
    expect(deleteRefOfPath("/api/v1/namespaces/apps/configmaps/a")).toBe("/configmaps/apps/a");
    expect(deleteRefOfPath("/api/v1/namespaces/apps")).toBe("/namespaces//apps");
    expect(deleteRefOfPath("/apis/apps/v1/namespaces/x/deployments/web?dryRun=All")).toBe("apps/deployments/x/web");
    expect(deleteRefOfPath("/api/v1/namespaces/apps/configmaps")).toBeUndefined();
    expect(deleteRefOfPath("/api/v1/namespaces/apps/pods/p/eviction")).toBeUndefined();
    expect(deleteRefOfPath("/healthz")).toBeUndefined();
  });
});
