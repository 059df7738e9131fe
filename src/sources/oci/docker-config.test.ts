import { describe, expect, it } from "vitest";
import { credentialsFromDockerConfig } from "./docker-config.js";

const b64 = (s: string) => Buffer.from(s).toString("base64");
const config = (auths: Record<string, unknown>) => JSON.stringify({ auths });

describe("credentialsFromDockerConfig", () => {
  it("decodes `auth` (base64 of user:password, the password may hold colons)", () => {
    const json = config({ "127.0.0.1:5000": { auth: b64("bot:pa:ss") } });
    expect(credentialsFromDockerConfig(json, "127.0.0.1:5000")).toEqual({ username: "bot", password: "pa:ss" });
  });

  it("prefers username/password fields when given", () => {
    const json = config({ "ghcr.io": { username: "u", password: "p", auth: b64("x:y") } });
    expect(credentialsFromDockerConfig(json, "ghcr.io")).toEqual({ username: "u", password: "p" });
  });

  it("matches keys written as URLs by their host, the way Docker's config store does", () => {
    const json = config({ "https://registry.example:8443/v2/": { auth: b64("a:b") } });
    expect(credentialsFromDockerConfig(json, "registry.example:8443")).toEqual({ username: "a", password: "b" });
    expect(credentialsFromDockerConfig(json, "registry.example")).toBeUndefined(); // the port must match
  });

  it("finds Docker Hub's entry under https://index.docker.io/v1/", () => {
    const json = config({ "https://index.docker.io/v1/": { auth: b64("hub:pw") } });
    expect(credentialsFromDockerConfig(json, "index.docker.io")).toEqual({ username: "hub", password: "pw" });
  });

  it("prefers an exact key over a wildcard and matches `*` to one DNS label only", () => {
    const json = config({ "*.example.com": { auth: b64("wild:1") }, "eu.example.com": { auth: b64("exact:2") } });
    expect(credentialsFromDockerConfig(json, "eu.example.com")?.username).toBe("exact");
    expect(credentialsFromDockerConfig(json, "us.example.com")?.username).toBe("wild");
    expect(credentialsFromDockerConfig(json, "a.b.example.com")).toBeUndefined();
  });

  it("returns undefined for a registry without an entry", () => {
    expect(credentialsFromDockerConfig(config({ "ghcr.io": { auth: b64("a:b") } }), "quay.io")).toBeUndefined();
  });

  it("refuses malformed input without quoting it (it holds secrets)", () => {
    const secret = '{"auths": {"ghcr.io": {"auth": "c2VjcmV0"}'; // truncated JSON
    expect(() => credentialsFromDockerConfig(secret, "ghcr.io")).toThrow(/not valid JSON/);
    expect(() => credentialsFromDockerConfig(secret, "ghcr.io")).not.toThrow(/c2VjcmV0/);
    expect(() => credentialsFromDockerConfig(config({ "ghcr.io": { auth: b64("nocolon") } }), "ghcr.io")).toThrow(
      "not base64 of <username>:<password>",
    );
    expect(() => credentialsFromDockerConfig(config({ "ghcr.io": { identitytoken: "t" } }), "ghcr.io")).toThrow(
      "identity or registry token, which flotilla does not support",
    );
  });
});
