import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../api/meta/object.js";
import { KUSTOMIZATION_OWNER, kustomizationExemption, kustomizationOwner } from "./drift-watch.js";

const G = "kustomize.toolkit.fluxcd.io";
const obj = (annotations: Record<string, string> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "app", namespace: "apps", annotations },
});

describe("Kustomization drift watch rules", () => {
  it("leaves alone what the reconcile would not put back: reconcile disabled and ssa Ignore always, IfNotPresent unless deleted", () => {
    expect(kustomizationExemption(obj(), false)).toBeUndefined();
    expect(kustomizationExemption(obj({ [`${G}/reconcile`]: "disabled" }), true)).toBe(`${G}/reconcile: disabled`);
    expect(kustomizationExemption(obj({ [`${G}/ssa`]: "ignore" }), true)).toBe(`${G}/ssa: Ignore`);
    expect(kustomizationExemption(obj({ [`${G}/ssa`]: "IfNotPresent" }), false)).toBe(`${G}/ssa: IfNotPresent`);
    expect(kustomizationExemption(obj({ [`${G}/ssa`]: "IfNotPresent" }), true)).toBeUndefined();
    expect(kustomizationExemption(obj({ [`${G}/ssa`]: "Merge" }), false)).toBeUndefined();
  });

  it("watches nothing for a suspended or deleting Kustomization", () => {
    const ks = (spec: object, meta: object = {}) =>
      ({ apiVersion: `${G}/v1`, kind: "Kustomization", metadata: { name: "a", ...meta }, spec }) as KubeObject;
    expect(KUSTOMIZATION_OWNER.idle(ks({}))).toBe(false);
    expect(KUSTOMIZATION_OWNER.idle(ks({ suspend: true }))).toBe(true);
    expect(KUSTOMIZATION_OWNER.idle(ks({}, { deletionTimestamp: "2026-01-01T00:00:00Z" }))).toBe(true);
    expect(KUSTOMIZATION_OWNER).toMatchObject({
      labelGroup: G,
      own: { manager: "kustomize-controller", operation: "Apply" },
    });
  });

  it("counts as its own only the Apply entry of the field manager its reconciler applies as", () => {
    expect(kustomizationOwner("platform-applier").own).toEqual({ manager: "platform-applier", operation: "Apply" });
    expect(kustomizationOwner().own).toEqual({ manager: "kustomize-controller", operation: "Apply" });
  });
});
