import { describe, expect, it } from "vitest";
import type { KubeObject } from "../api/meta/object.js";
import { OwnWrites } from "./own-writes.js";

const obj = (rv: string, uid = "u1"): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "a", namespace: "n", resourceVersion: rv, uid },
});

describe("read-your-writes over an informer cache", () => {
  it("uses our own write while the cache lags behind it", () => {
    const w = new OwnWrites();
    w.record("n/a", obj("12"));
    expect(w.freshest("n/a", obj("10"))?.metadata.resourceVersion).toBe("12");
  });

  it("uses the cache once it has caught up, and stops remembering", () => {
    const w = new OwnWrites();
    w.record("n/a", obj("12"));
    expect(w.freshest("n/a", obj("15"))?.metadata.resourceVersion).toBe("15");
    expect(w.freshest("n/a", obj("11"))?.metadata.resourceVersion).toBe("11");
  });

  it("ignores a write to an earlier object of the same name (deleted and re-created)", () => {
    const w = new OwnWrites();
    w.record("n/a", obj("50", "old"));
    expect(w.freshest("n/a", obj("7", "new"))?.metadata.uid).toBe("new");
  });

  it("has nothing to offer without a cached copy (the caller GETs)", () => {
    const w = new OwnWrites();
    w.record("n/a", obj("12"));
    expect(w.freshest("n/a", undefined)).toBeUndefined();
  });
});
