import { describe, expect, it } from "vitest";
import { rateLimitKey } from "./rate-limiter.js";

describe("which token bucket a request draws from (one per resource kind, as controller-runtime's clients)", () => {
  it("an object, its collection, its subresources and a namespaced list share their kind's bucket", () => {
    const key = "kustomize.toolkit.fluxcd.io/v1/kustomizations";
    for (const path of [
      "/apis/kustomize.toolkit.fluxcd.io/v1/kustomizations",
      "/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations",
      "/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/app",
      "/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/app/status",
    ])
      expect(rateLimitKey(path)).toBe(key);
    expect(rateLimitKey("/api/v1/namespaces/apps/configmaps/web")).toBe("/v1/configmaps");
    expect(rateLimitKey("/api/v1/configmaps")).toBe("/v1/configmaps");
  });

  it("a Namespace's own status and finalize are the Namespace kind, not a resource in it", () => {
    expect(rateLimitKey("/api/v1/namespaces")).toBe("/v1/namespaces");
    expect(rateLimitKey("/api/v1/namespaces/apps")).toBe("/v1/namespaces");
    expect(rateLimitKey("/api/v1/namespaces/apps/status")).toBe("/v1/namespaces");
    expect(rateLimitKey("/api/v1/namespaces/apps/finalize")).toBe("/v1/namespaces");
    expect(rateLimitKey("/api/v1/namespaces/apps/events")).toBe("/v1/events");
  });

  it("kinds of different groups or versions draw from different buckets; discovery from its own", () => {
    expect(rateLimitKey("/apis/apps/v1/namespaces/a/deployments/x")).not.toBe(
      rateLimitKey("/apis/extensions.example.com/v1/namespaces/a/deployments/x"),
    );
    for (const path of ["/api", "/apis", "/api/v1", "/apis/apps/v1", "/version", "/openapi/v3", "/metrics"])
      expect(rateLimitKey(path)).toBe("discovery");
  });
});
