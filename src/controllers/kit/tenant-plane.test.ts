import { describe, expect, it } from "vitest";
import { planeOfSecret } from "./tenant-plane.js";

const secret = (metadata: Record<string, unknown>) => ({
  apiVersion: "v1",
  kind: "Secret",
  metadata: { name: "tenant-a-admin-kubeconfig", namespace: "tenants", ...metadata },
});

describe("the TenantControlPlane a kubeconfig Secret belongs to", () => {
  it("is the plane owning it", () => {
    const ownerReferences = [
      { apiVersion: "kamaji.clastix.io/v1alpha1", kind: "TenantControlPlane", name: "tenant-a", uid: "1" },
    ];
    expect(planeOfSecret(secret({ ownerReferences, labels: { "kamaji.clastix.io/name": "other" } }))).toBe("tenant-a");
  });

  it("else the plane Kamaji's name label names", () => {
    expect(planeOfSecret(secret({ labels: { "kamaji.clastix.io/name": "tenant-a" } }))).toBe("tenant-a");
  });

  it("is none for a Secret Kamaji did not write, nor for an owner of that kind in another group", () => {
    const ownerReferences = [{ apiVersion: "example.com/v1", kind: "TenantControlPlane", name: "x", uid: "1" }];
    expect(planeOfSecret(secret({}))).toBeUndefined();
    expect(planeOfSecret(secret({ ownerReferences }))).toBeUndefined();
  });
});
