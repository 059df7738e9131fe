import { describe, expect, it } from "vitest";
import { formatOciUrl, parseOciUrl, referenceOf } from "./reference.js";

const DIGEST = `sha256:${"a".repeat(64)}`;

describe("parseOciUrl", () => {
  it("splits registry with port, nested repository and tag", () => {
    expect(parseOciUrl("oci://127.0.0.1:5000/team/app:v1.2.3")).toEqual({
      registry: "127.0.0.1:5000",
      repository: "team/app",
      tag: "v1.2.3",
    });
  });

  it("keeps a tag and a digest given together, and the digest wins as the reference", () => {
    const ref = parseOciUrl(`oci://ghcr.io/org/app:v1@${DIGEST}`);
    expect(ref).toEqual({ registry: "ghcr.io", repository: "org/app", tag: "v1", digest: DIGEST });
    expect(referenceOf(ref)).toBe(DIGEST);
  });

  it("takes the first segment as the registry only if it looks like a host, like go-containerregistry", () => {
    expect(parseOciUrl("oci://localhost:5000/app")).toMatchObject({ registry: "localhost:5000", repository: "app" });
    expect(parseOciUrl("oci://org/app")).toEqual({ registry: "index.docker.io", repository: "org/app" });
    expect(parseOciUrl("oci://app:1.0")).toEqual({
      registry: "index.docker.io",
      repository: "library/app",
      tag: "1.0",
    });
    expect(parseOciUrl("oci://docker.io/org/app")).toMatchObject({ registry: "index.docker.io" });
  });

  it("defaults the reference to latest when neither tag nor digest is given", () => {
    expect(referenceOf(parseOciUrl("oci://ghcr.io/org/app"))).toBe("latest");
  });

  it.each([
    ["https://ghcr.io/org/app", "must start with oci://"],
    ["oci://ghcr.io/Org/App", "repository 'Org/App' may hold only lowercase"],
    ["oci://ghcr.io/org/app:", "no tag after the colon"],
    ["oci://ghcr.io/org/app:v1!", "tag 'v1!' may hold only"],
    ["oci://ghcr.io/org/app@sha256:abc", "is not a sha256 digest"],
    ["oci://ghcr.io/org/app@md5:" + "a".repeat(32), "is not a sha256 digest"],
    ["oci://ghcr.io/", "no repository after the registry"],
    ["oci://ghcr.io/org//app", "repository 'org//app'"],
    ["oci://a@b@c", "more than one '@'"],
  ])("refuses %s, naming the URL", (url, why) => {
    expect(() => parseOciUrl(url)).toThrow(`invalid OCI URL '${url}'`);
    expect(() => parseOciUrl(url)).toThrow(why);
  });

  it("formats back to the URL it parsed", () => {
    for (const url of ["oci://127.0.0.1:5000/app:v1", `oci://ghcr.io/org/app@${DIGEST}`, "oci://ghcr.io/a/b/c"])
      expect(formatOciUrl(parseOciUrl(url))).toBe(url);
  });
});
