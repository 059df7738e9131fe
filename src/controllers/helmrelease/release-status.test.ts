import { describe, expect, it } from "vitest";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import { historyOf } from "./release-status.js";
import type { StoredRelease } from "./storage/release.js";

const d1 = `sha256:${"a1".repeat(32)}`;
const d2 = `sha256:${"b2".repeat(32)}`;
const stored = (version: number, chartVersion: string, status = "deployed"): StoredRelease => ({
  name: "web",
  namespace: "apps",
  version,
  info: { first_deployed: "2026-11-27T10:00:00Z", last_deployed: "2026-11-27T10:00:00Z", status },
  chart: { metadata: { name: "web", version: chartVersion } },
  config: {},
  manifest: "",
  hooks: [],
});
const hr = (status: HelmRelease["status"]): HelmRelease =>
  ({ metadata: { name: "web", namespace: "apps" }, spec: {}, status }) as unknown as HelmRelease;

describe("status.history of a release from an OCIRepository chart", () => {
  it("records the artifact digest on the revision an install or upgrade made from it", () => {
    const [snap] = historyOf(hr({ lastAttemptedRevisionDigest: d1 }), [stored(1, "1.0.0+a1a1a1a1a1a1")]);
    expect(snap!.ociDigest).toBe(d1);
  });

  it("keeps each earlier revision's digest from the previous status when the chart moves on", () => {
    const before = historyOf(hr({ lastAttemptedRevisionDigest: d1 }), [stored(1, "1.0.0+a1a1a1a1a1a1")]);
    const after = historyOf(hr({ lastAttemptedRevisionDigest: d2, history: before }), [
      stored(1, "1.0.0+a1a1a1a1a1a1", "superseded"),
      stored(2, "1.1.0+b2b2b2b2b2b2"),
    ]);
    expect(after.map((s) => [s.version, s.ociDigest])).toEqual([
      [2, d2],
      [1, d1],
    ]);
  });

  it("records none on a revision whose chart is not the digest being released (a rollback), nor for charts from elsewhere", () => {
    const [rollback] = historyOf(hr({ lastAttemptedRevisionDigest: d2 }), [stored(3, "1.0.0+a1a1a1a1a1a1")]);
    expect(rollback!.ociDigest).toBeUndefined();
    const [plain] = historyOf(hr({}), [stored(1, "1.0.0")]);
    expect(plain!.ociDigest).toBeUndefined();
    expect(plain!.digest).not.toBe(
      historyOf(hr({ lastAttemptedRevisionDigest: d1 }), [stored(1, "1.0.0+a1a1a1a1a1a1")])[0]!.digest,
    );
  });
});
