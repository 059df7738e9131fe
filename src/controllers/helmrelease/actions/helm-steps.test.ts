import { describe, expect, it } from "vitest";
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import { helmStepFor } from "./helm-steps.js";

const hr = {
  apiVersion: "helm.toolkit.fluxcd.io/v2",
  kind: "HelmRelease",
  metadata: { name: "web", namespace: "apps" },
  spec: { interval: "1m", timeout: "2m" },
} as HelmRelease;
const input = { hr, target: { release: "web", namespace: "apps" }, chart: "/charts/web", values: {} };

describe("the helm action the release state asks for", () => {
  it("runs its own helm command, recording install and upgrade as the last release action", () => {
    const steps = [
      helmStepFor({ kind: "install" }),
      helmStepFor({ kind: "upgrade" }),
      helmStepFor({ kind: "test" }),
      helmStepFor({ kind: "rollback", toVersion: 3 }),
      helmStepFor({ kind: "uninstall-remediation" }),
    ];
    expect(steps.map((s) => [s.command, s.releases])).toEqual([
      ["install", "install"],
      ["upgrade", "upgrade"],
      ["test", undefined],
      ["rollback", undefined],
      ["uninstall", undefined],
    ]);
  });

  it("ends the reconcile after a remediation (rollback, uninstall) only", () => {
    const remediates = (["install", "upgrade", "test", "uninstall-remediation"] as const).map(
      (kind) => helmStepFor({ kind }).remediates ?? false,
    );
    expect(remediates).toEqual([false, false, false, true]);
    expect(helmStepFor({ kind: "rollback", toVersion: 3 }).remediates).toBe(true);
  });

  it("rolls back to the revision decided, and says what runs with which timeout", () => {
    expect(
      helmStepFor({ kind: "rollback", toVersion: 3 })
        .args(input, undefined as never)
        .slice(-2),
    ).toEqual(["web", "3"]);
    expect(helmStepFor({ kind: "uninstall-remediation" }).progress(hr)).toBe(
      "Running 'uninstall' action with timeout of 2m",
    );
  });
});
