import { describe, expect, it } from "vitest";
import { RecentWrites } from "./recent-writes.js";

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
});
