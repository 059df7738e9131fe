import { describe, expect, it } from "vitest";
import { fieldDiff, formatPath } from "./diff.js";

describe("field diff", () => {
  it("lists changed, added and removed leaves by path", () => {
    const before = { spec: { replicas: 1, template: { spec: { containers: [{ name: "a", image: "v1" }] } } } };
    const after = {
      spec: { replicas: 2, paused: true, template: { spec: { containers: [{ name: "a", image: "v2" }] } } },
    };
    expect(fieldDiff(before, after)).toEqual([
      { path: "spec.replicas", before: 1, after: 2 },
      { path: "spec.template.spec.containers[0].image", before: "v1", after: "v2" },
      { path: "spec.paused", after: true },
    ]);
    expect(fieldDiff({ data: { a: "1", b: "2" } }, { data: { a: "1" } })).toEqual([{ path: "data.b", before: "2" }]);
  });

  it("is empty for equal values", () => {
    expect(fieldDiff({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
  });

  it("lists a map added whole key by key, and an array grown by its new elements", () => {
    expect(fieldDiff({ metadata: { labels: undefined } }, { metadata: { labels: { app: "web" } } })).toEqual([
      { path: "metadata.labels.app", after: "web" },
    ]);
    expect(fieldDiff({ args: ["a"] }, { args: ["a", "b"] })).toEqual([{ path: "args[1]", after: "b" }]);
  });

  it("quotes keys that are not plain words", () => {
    expect(formatPath(["metadata", "labels", "app.kubernetes.io/name"])).toBe(
      'metadata.labels["app.kubernetes.io/name"]',
    );
  });

  it("hides the values of masked fields but still lists the change", () => {
    const secretData = (path: (string | number)[]) => path[0] === "data";
    expect(
      fieldDiff({ data: { token: "old" }, type: "Opaque" }, { data: { token: "new", extra: "x" } }, secretData),
    ).toEqual([
      { path: "data.token", before: "*** (before)", after: "*** (after)" },
      { path: "data.extra", after: "***" },
      { path: "type", before: "Opaque" },
    ]);
  });
});
