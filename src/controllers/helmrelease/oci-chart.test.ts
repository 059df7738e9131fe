import { describe, expect, it } from "vitest";
import { versionWithDigest } from "./oci-chart.js";

const HEX = "9f3a1c0b2d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4";

describe("the version a chart from an OCIRepository installs under (helm-controller's digest tracking)", () => {
  it("appends the first 12 hex digits of the digest of a semver tag that matches the chart", () => {
    expect(versionWithDigest("6.5.0", `6.5.0@sha256:${HEX}`)).toEqual({
      version: "6.5.0+9f3a1c0b2d4e",
      digest: `sha256:${HEX}`,
    });
  });

  it("reads helm's '_' in a tag as '+', and replaces the chart's own build metadata", () => {
    expect(versionWithDigest("1.0.0+build.1", `1.0.0_build.1@sha256:${HEX}`).version).toBe("1.0.0+9f3a1c0b2d4e");
  });

  it("tracks the digest alone for a digest ref or a tag that is not a version", () => {
    expect(versionWithDigest("2.1.0", `sha256:${HEX}`).version).toBe("2.1.0+9f3a1c0b2d4e");
    expect(versionWithDigest("2.1.0", `latest@sha256:${HEX}`).version).toBe("2.1.0+9f3a1c0b2d4e");
  });

  it("refuses a semver tag that is not the chart's version, as ChartMutateError", () => {
    expect(() => versionWithDigest("6.5.0", `6.4.0@sha256:${HEX}`)).toThrow(
      "artifact revision 6.4.0 does not match chart version 6.5.0",
    );
    try {
      versionWithDigest("6.5.0", "main@sha1:abc");
    } catch (err) {
      expect((err as { reason: string }).reason).toBe("ChartMutateError");
    }
  });
});
