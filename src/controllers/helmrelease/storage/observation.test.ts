import { describe, expect, it } from "vitest";
import { decodeRelease, encodeRelease } from "./codec.js";
import { observationDigest, observationText } from "./observation.js";
import type { StoredRelease } from "./release.js";

const release = (over: Partial<StoredRelease> = {}): StoredRelease => ({
  name: "web",
  namespace: "default",
  version: 2,
  info: { first_deployed: "2026-11-23T10:00:00Z", last_deployed: "2026-11-23T11:00:00Z", status: "deployed" },
  chart: { metadata: { name: "web", version: "1.1.0", appVersion: "1.1" } },
  config: { b: 1, a: "x" },
  manifest: "---\nkind: ConfigMap\n",
  hooks: [],
  ...over,
});

describe("Helm's release records", () => {
  it("decode what they encode, gzipped and base64-encoded twice as Helm's Secret driver stores them", () => {
    const data = encodeRelease(release());
    const helmText = Buffer.from(data, "base64").toString("utf8");
    expect(Buffer.from(helmText, "base64").subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(decodeRelease(data)).toEqual(release());
  });

  it("read a record Helm stored without gzip", () => {
    const plain = Buffer.from(Buffer.from(JSON.stringify(release())).toString("base64")).toString("base64");
    expect(decodeRelease(plain)).toEqual(release());
  });
});

describe("the observation digest of a release", () => {
  it("does not depend on the order of values keys (Go sorts map keys) and changes with the values", () => {
    expect(observationDigest(release({ config: { a: "x", b: 1 } }))).toBe(observationDigest(release()));
    expect(observationDigest(release({ config: { a: "y", b: 1 } }))).not.toBe(observationDigest(release()));
  });

  it("leaves test hooks out, as helm-controller does, but not other hooks", () => {
    const hook = (events: string[]) => ({ name: "h", kind: "Pod", path: "t.yaml", manifest: "x", events });
    expect(observationDigest(release({ hooks: [hook(["test"])] }))).toBe(observationDigest(release()));
    expect(observationDigest(release({ hooks: [hook(["post-install"])] }))).not.toBe(observationDigest(release()));
  });

  it("is written as Flux writes status.history[].digest", () => {
    expect(observationDigest(release())).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("of a release from an OCIRepository chart ends with its ociDigest, the last field of helm-controller's Observation", () => {
    const digest = `sha256:${"ab".repeat(32)}`;
    const plain = observationText(release());
    expect(observationText(release(), digest)).toBe(`${plain.slice(0, -2)},"ociDigest":"${digest}"}\n`);
    expect(observationDigest(release(), digest)).not.toBe(observationDigest(release()));
    expect(observationDigest(release(), "")).toBe(observationDigest(release()));
  });
});
