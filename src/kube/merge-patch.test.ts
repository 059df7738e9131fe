import { describe, expect, it } from "vitest";
import { isNoopMergePatch } from "./merge-patch.js";

describe("is a merge patch a no-op?", () => {
  const current = { a: 1, nested: { b: "x", list: [1, 2] }, gone: undefined };
  it("is when every value is already there", () => {
    expect(isNoopMergePatch(current, { a: 1, nested: { list: [1, 2] } })).toBe(true);
  });
  it("is not when a value differs, a list differs, or a key is added", () => {
    expect(isNoopMergePatch(current, { a: 2 })).toBe(false);
    expect(isNoopMergePatch(current, { nested: { list: [2, 1] } })).toBe(false);
    expect(isNoopMergePatch(current, { nested: { c: true } })).toBe(false);
  });
  it("treats null as a deletion: a no-op only for keys that are absent", () => {
    expect(isNoopMergePatch(current, { missing: null, gone: null })).toBe(true);
    expect(isNoopMergePatch(current, { a: null })).toBe(false);
  });
  it("ignores undefined values, which JSON drops", () => {
    expect(isNoopMergePatch(current, { a: undefined })).toBe(true);
  });
  it("compares objects inside lists by value", () => {
    expect(isNoopMergePatch({ c: [{ t: "Ready", s: "True" }] }, { c: [{ s: "True", t: "Ready" }] })).toBe(true);
  });
});
