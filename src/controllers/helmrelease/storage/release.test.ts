import { describe, expect, it } from "vitest";
import { manifestObjects, type StoredRelease } from "./release.js";

const release = (manifest: string) => ({ manifest }) as unknown as StoredRelease;
const MANIFEST =
  "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\n# empty\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: b\n";

describe("a release manifest's objects", () => {
  it("are the manifest's mappings, in order, without empty documents", () => {
    expect(manifestObjects(release(MANIFEST)).map((o) => o.kind)).toEqual(["ConfigMap", "Service"]);
  });

  it("are fresh objects for each caller, so one caller's changes never reach the next (the parse is reused)", () => {
    const first = manifestObjects(release(MANIFEST));
    (first[0]!.metadata as Record<string, unknown>).namespace = "changed";
    const second = manifestObjects(release(MANIFEST));
    expect(second[0]!.metadata).toEqual({ name: "a" });
    expect(second[0]).not.toBe(first[0]);
  });

  it("follow the manifest's text, not the release object", () => {
    expect(manifestObjects(release(MANIFEST.replace("name: a", "name: c")))[0]!.metadata).toEqual({ name: "c" });
    expect(manifestObjects(release(""))).toEqual([]);
  });
});
