import { describe, expect, it } from "vitest";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import { checkedReleaseName, releaseName, releaseNameProblem, shortenName, targetNamespace } from "./release-name.js";

const hr = (name: string, spec: Partial<HelmRelease["spec"]> = {}) =>
  ({ metadata: { name, namespace: "tenants" }, spec: { interval: "1m", ...spec } }) as HelmRelease;

describe("release name", () => {
  it("is the target namespace and the name joined, as the Kamaji guide's gets default-tenant1-cert-manager", () => {
    expect(releaseName(hr("tenant1-cert-manager", { targetNamespace: "default" }))).toBe(
      "default-tenant1-cert-manager",
    );
    expect(targetNamespace(hr("x", { targetNamespace: "default" }))).toBe("default");
  });

  it("is the object's name without a target namespace, which then is the object's namespace", () => {
    expect(releaseName(hr("podinfo"))).toBe("podinfo");
    expect(targetNamespace(hr("podinfo"))).toBe("tenants");
  });

  it("keeps a name of 53 characters and shortens a longer one to 40 + '-' + 12 hex of its sha256", () => {
    const n53 = "a".repeat(53);
    expect(shortenName(n53)).toBe(n53);
    const long = "a".repeat(60);
    // the hex computed independently: printf 'a%.0s' $(seq 60) | sha256sum
    expect(shortenName(long)).toBe(`${"a".repeat(40)}-11ee391211c6`);
    expect(shortenName(long)).toHaveLength(53);
  });

  it("shortens spec.releaseName too", () => {
    expect(releaseName(hr("x", { releaseName: "r".repeat(54), targetNamespace: "t" }))).toMatch(/^r{40}-/);
  });

  it("refuses, naming spec.releaseName, a name helm would read as a flag or refuse itself", () => {
    for (const bad of ["--generate-name", "-h", "--post-renderer=/bin/sh", "Web", "web_1", "web-", ".web", "a..b"]) {
      const problem = releaseNameProblem(hr("x", { releaseName: bad }));
      expect(problem, bad).toBe(
        `HelmRelease tenants/x: spec.releaseName ${JSON.stringify(bad)} is not a valid Helm release name: ` +
          "at most 53 lowercase letters, digits, '-' and '.', starting and ending with a letter or digit; " +
          "set spec.releaseName to such a name",
      );
      expect(() => checkedReleaseName(hr("x", { releaseName: bad }))).toThrow(problem);
    }
  });

  it("accepts what helm accepts: DNS subdomains of at most 53 characters, long names once shortened", () => {
    for (const good of ["web", "a", "0", "web-1", "web.v1", "a".repeat(53), "r".repeat(60)])
      expect(releaseNameProblem(hr("x", { releaseName: good })), good).toBeUndefined();
    expect(checkedReleaseName(hr("podinfo", { targetNamespace: "default" }))).toBe("default-podinfo");
  });

  it("names the derived name when there is no spec.releaseName (a name that shortens to '.-')", () => {
    const name = `${"a".repeat(39)}.${"b".repeat(20)}`;
    expect(releaseNameProblem(hr(name))).toContain(
      `the release name "${shortenName(name)}" made of spec.targetNamespace and metadata.name`,
    );
  });
});
