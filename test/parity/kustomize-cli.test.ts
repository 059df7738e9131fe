// `flotilla kustomize build` as a user runs it: same stdout as kustomize, one ✗ line and exit 1 on error.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { locateHelm } from "../../src/binaries/helm/index.js";
import { requireTool } from "../../scripts/parity-cases.mjs";
import { locateToolchain } from "../../src/local/toolchain.js";
import { runCli } from "../support/cli.js";

const { kustomize } = locateToolchain();
const helm = locateHelm();

describe("flotilla kustomize build", () => {
  it("prints exactly what kustomize build prints", async () => {
    requireTool("kustomize", kustomize);
    const dir = "test/fixtures/kustomize/fleet-platform-tenants-staging";
    const real = spawnSync(kustomize, ["build", dir], { encoding: "utf8" });
    const ours = await runCli(["kustomize", "build", dir]);
    expect(ours.code).toBe(0);
    expect(ours.stdout).toBe(real.stdout);
  });

  it("fails with one line naming the problem", async () => {
    const ours = await runCli([
      "kustomize",
      "build",
      "test/fixtures/kustomize/error-duplicate-resource-id-flux-tenants",
    ]);
    expect(ours.code).toBe(1);
    expect(ours.stdout).toBe("");
    expect(ours.stderr.trim().split("\n")).toEqual([
      "✗ kustomization.yaml: may not add resource with an already registered id: Kustomization.v1.kustomize.toolkit.fluxcd.io/tenants.flux-system — it is defined twice, in tenants.yaml (documents 1 and 2); remove one of them",
    ]);
  });

  it("renders helmCharts with --enable-helm, with the pinned helm unless --helm-command names another", async () => {
    requireTool("kustomize", kustomize);
    requireTool("helm", helm);
    const dir = "test/fixtures/kustomize/helm-local-chart-values-inline";
    const real = spawnSync(kustomize, ["build", "--enable-helm", "--helm-command", helm, dir], { encoding: "utf8" });
    const ours = await runCli(["kustomize", "build", "--enable-helm", dir]);
    expect(ours.code).toBe(0);
    expect(ours.stdout).toBe(real.stdout);
    const off = await runCli(["kustomize", "build", dir]);
    expect(off.code).toBe(1);
    expect(off.stderr).toMatch(/field "helmCharts" needs helm, which is off: enable it with .*--enable-helm/);
  });
});
