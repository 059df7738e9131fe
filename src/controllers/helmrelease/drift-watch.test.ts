import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../api/meta/object.js";
import { HELM_RELEASE_OWNER } from "./drift-watch.js";

const G = "helm.toolkit.fluxcd.io";
const hr = (spec: object, meta: object = {}) =>
  ({ apiVersion: `${G}/v2`, kind: "HelmRelease", metadata: { name: "a", ...meta }, spec }) as KubeObject;

describe("HelmRelease drift watch rules", () => {
  it("watches only while drift correction is on (flotilla's default) and the release is neither suspended nor deleting", () => {
    expect(HELM_RELEASE_OWNER.idle(hr({}))).toBe(false);
    expect(HELM_RELEASE_OWNER.idle(hr({ driftDetection: { mode: "enabled" } }))).toBe(false);
    expect(HELM_RELEASE_OWNER.idle(hr({ driftDetection: { mode: "warn" } }))).toBe(true);
    expect(HELM_RELEASE_OWNER.idle(hr({ driftDetection: { mode: "disabled" } }))).toBe(true);
    expect(HELM_RELEASE_OWNER.idle(hr({ suspend: true }))).toBe(true);
    expect(HELM_RELEASE_OWNER.idle(hr({}, { deletionTimestamp: "2026-01-01T00:00:00Z" }))).toBe(true);
  });

  it("leaves alone objects opted out of drift detection, by label or annotation", () => {
    const obj = (meta: object): KubeObject => ({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c", ...meta },
    });
    expect(HELM_RELEASE_OWNER.exemption(obj({}), false)).toBeUndefined();
    expect(HELM_RELEASE_OWNER.exemption(obj({ labels: { [`${G}/driftDetection`]: "disabled" } }), true)).toBe(
      `${G}/driftDetection: disabled`,
    );
    expect(HELM_RELEASE_OWNER.exemption(obj({ annotations: { [`${G}/driftDetection`]: "disabled" } }), false)).toBe(
      `${G}/driftDetection: disabled`,
    );
    // helm writes as an Apply (--server-side) or an Update: any operation of its manager is its own.
    expect(HELM_RELEASE_OWNER).toMatchObject({ labelGroup: G, own: { manager: "helm" } });
    expect(HELM_RELEASE_OWNER.own.operation).toBeUndefined();
  });
});
