import { describe, expect, it } from "vitest";
import { githubAppProblem } from "./provider-config.js";

const APP = { githubAppID: "1", githubAppInstallationID: "2", githubAppPrivateKey: "-----BEGIN RSA PRIVATE KEY-----" };

describe("GitHub App authentication in a Provider's Secret", () => {
  it("is refused by name for github and githubdispatch when the Secret has no token, naming the keys, not their values", () => {
    for (const type of ["github", "githubdispatch"]) {
      const err = githubAppProblem(type, APP, "ns/gh");
      expect(err?.reason).toBe("UnsupportedField");
      expect(err?.message).toBe(
        "spec.secretRef: Secret 'ns/gh' holds GitHub App keys (githubAppID, githubAppInstallationID, githubAppPrivateKey): GitHub App authentication is not supported by flotilla; set the 'token' key instead",
      );
      expect(err?.message).not.toContain("BEGIN RSA");
    }
  });

  it("is not in the way when a token is set (notification-controller then uses the token too) or for other types", () => {
    expect(githubAppProblem("github", { ...APP, token: "t" }, "ns/gh")).toBeUndefined();
    expect(githubAppProblem("generic", APP, "ns/gh")).toBeUndefined();
    expect(githubAppProblem("github", { token: "t" }, "ns/gh")).toBeUndefined();
  });
});
