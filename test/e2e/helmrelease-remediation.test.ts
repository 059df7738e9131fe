// Remediation with the real helm on the management plane: a post-install hook that fails (kwok, see
// test/support/charts.ts) is retried after an uninstall, then stalls with the attempts counted; an
// upgrade whose post-upgrade hook fails is rolled back to the previous revision.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelmRelease } from "../../src/api/helm/helmrelease.js";
import { hookFailingChart } from "../support/charts.js";
import { eventually, planeCluster } from "../support/fleet-context.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";

const mgmt = planeCluster("management");
let env: HelmReleaseEnv;
const hr = (name: string) => env.hr(name);
const hrPath = (name: string) => env.hrPath(name);
const cond = (o: HelmRelease, type: string) => condOf(o, type);
const createRelease = (name: string, spec: Record<string, unknown>) =>
  env.createRelease(name, { name: "hooked", version: "1.0.0" }, { timeout: "30s", ...spec });
const helmHistory = async (release: string) =>
  JSON.parse(await env.helm(["history", release, "-n", env.ns, "-o", "json"])) as {
    revision: number;
    status: string;
    description: string;
  }[];

beforeAll(async () => {
  env = await startHelmReleaseEnv("hr-remediation");
  await hookFailingChart(env.charts, "hooked", "1.0.0");
}, 120_000);

afterAll(() => env?.stop());

describe("HelmRelease remediation", () => {
  it("retries a failed install after uninstalling it, then stalls with the attempts counted", async () => {
    await createRelease("inst", { install: { remediation: { retries: 1 } } });
    const stalled = await eventually(
      "Stalled after the retries",
      async () => {
        const o = await hr("inst");
        return cond(o, "Stalled")?.status === "True" ? o : undefined;
      },
      300_000,
      1000,
    );
    expect(stalled.status).toMatchObject({ installFailures: 2, failures: 2, lastAttemptedReleaseAction: "install" });
    expect(cond(stalled, "Ready")).toMatchObject({ status: "False", reason: "InstallFailed" });
    expect(cond(stalled, "Ready")!.message).toContain(
      `Helm install failed for release ${env.ns}/inst with chart hooked@1.0.0`,
    );
    expect(cond(stalled, "Ready")!.message).toContain("Failed to install after 2 attempt(s)");
    expect(cond(stalled, "Remediated")).toMatchObject({ status: "True", reason: "UninstallSucceeded" });
    expect((await helmHistory("inst")).map((r) => r.status)).toEqual(["failed"]);
  }, 360_000);

  it("rolls a failed upgrade back to the previous revision", async () => {
    await createRelease("upg", { values: { hook: { fail: false } }, upgrade: { remediation: { retries: 1 } } });
    await eventually("installed", async () => cond(await hr("upg"), "Ready")?.status === "True", 180_000, 1000);
    await mgmt.client.patch(hrPath("upg"), "merge", { spec: { values: { hook: { fail: true } } } });
    const stalled = await eventually(
      "Stalled after rolling back twice",
      async () => {
        const o = await hr("upg");
        return cond(o, "Stalled")?.status === "True" ? o : undefined;
      },
      300_000,
      1000,
    );
    expect(stalled.status).toMatchObject({ upgradeFailures: 2, lastAttemptedReleaseAction: "upgrade" });
    expect(cond(stalled, "Remediated")).toMatchObject({ status: "True", reason: "RollbackSucceeded" });
    const history = await helmHistory("upg");
    expect(history.at(-1)!.status).toBe("deployed");
    expect(history.at(-1)!.description).toMatch(/^Rollback to \d+$/);
    expect(history.filter((r) => r.status === "failed")).toHaveLength(2);
  }, 420_000);
});
