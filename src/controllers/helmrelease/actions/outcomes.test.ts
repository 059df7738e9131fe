import { describe, expect, it } from "vitest";
import type { HelmReleaseStatus } from "../../../api/helm/helmrelease.js";
import type { StoredRelease } from "../storage/types.js";
import { rollback } from "./rollback.js";
import { test } from "./test.js";
import { upgrade } from "./upgrade.js";

const release = {
  name: "web",
  namespace: "apps",
  version: 2,
  chart: { metadata: { name: "podinfo", version: "6.5.0" } },
} as unknown as StoredRelease;
const ctx = { where: "release apps/web", chart: "podinfo@6.5.0", hint: "", r: release, testHooks: 0 };

describe("action outcomes (helm-controller's wording)", () => {
  it("a successful upgrade sets Released and clears TestSuccess and Remediated", () => {
    expect(upgrade.succeeded(ctx)).toEqual({
      condition: {
        type: "Released",
        status: "True",
        reason: "UpgradeSucceeded",
        message: "Helm upgrade succeeded for release apps/web.v2 with chart podinfo@6.5.0",
      },
      drop: ["TestSuccess", "Remediated"],
      event: {
        type: "Normal",
        reason: "UpgradeSucceeded",
        message: "Helm upgrade succeeded for release apps/web.v2 with chart podinfo@6.5.0",
      },
    });
  });

  it("a failed upgrade counts a failure and an upgrade failure; a failed test counts against the last action", () => {
    const s: HelmReleaseStatus = { lastAttemptedReleaseAction: "install" };
    const o = upgrade.failed(new Error("boom"), ctx, s);
    expect(o.condition).toMatchObject({ type: "Released", status: "False", reason: "UpgradeFailed" });
    expect(o.event.message).toBe("Helm upgrade failed for release apps/web with chart podinfo@6.5.0: boom");
    test.failed(new Error("red"), ctx, s);
    expect(s).toMatchObject({ failures: 2, upgradeFailures: 1, installFailures: 1 });
  });

  it("a failed rollback leaves Remediated True with RollbackFailed, naming the revision", () => {
    const o = rollback(1).failed(new Error("no"), ctx, {});
    expect(o.condition).toEqual({
      type: "Remediated",
      status: "True",
      reason: "RollbackFailed",
      message: "Helm rollback failed for release apps/web (apps/web.v2): no",
    });
  });
});
