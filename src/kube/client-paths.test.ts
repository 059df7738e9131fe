import { describe, expect, it } from "vitest";
import { USED_KINDS } from "../api/kinds.js";
import { pathOf } from "../api/paths.js";
import { KubeClient } from "./client.js";
import { KubeError } from "./errors.js";

describe("request paths built from names in manifests", () => {
  const client = new KubeClient({ name: "c", server: "https://127.0.0.1:6443" });

  it("escape names and namespaces, so a '/' cannot add path segments", () => {
    expect(pathOf(USED_KINDS.Secret, "a/../b", "../../x")).toBe("/api/v1/namespaces/a%2F..%2Fb/secrets/..%2F..%2Fx");
    expect(client.url(pathOf(USED_KINDS.Secret, "ns", "s")).pathname).toBe("/api/v1/namespaces/ns/secrets/s");
  });

  it("refuse '.' and '..' (escaped too), which URL parsing would resolve into the parent's path", () => {
    for (const [ns, name] of [
      ["ns", ".."],
      ["ns", "."],
      ["..", "s"],
    ])
      expect(() => client.url(pathOf(USED_KINDS.Secret, ns, name))).toThrow(KubeError);
    expect(() => client.url("/api/v1/namespaces/ns/configmaps/%2e%2E")).toThrow(KubeError);
    // An escaped dot in a name is escaped again, so it stays a name.
    expect(client.url(pathOf(USED_KINDS.Secret, "ns", "%2e%2e")).pathname).toBe(
      "/api/v1/namespaces/ns/secrets/%252e%252e",
    );
    expect(() => client.url("/api/v1/namespaces/ns/configmaps/..")).toThrow(
      "refusing the request path /api/v1/namespaces/ns/configmaps/..: '..' is not a valid object name or namespace",
    );
  });
});
