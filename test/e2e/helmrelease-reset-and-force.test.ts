// helm-controller's remediation knobs with the real helm: remediateLastFailure decides whether an
// upgrade that failed with no retries left is rolled back or left for a person; the resetAt annotation
// gives a stalled release its retries back; forceAt (`flotilla reconcile hr --force`) upgrades a
// release that is in sync.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelmRelease } from "../../src/api/helm/helmrelease.js";
import { hookFailingChart } from "../support/charts.js";
import { runCli } from "../support/cli.js";
import { eventually, plane, planeCluster } from "../support/fleet-context.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";

const mgmt = planeCluster("management");
let env: HelmReleaseEnv;
const CHART = { name: "hooked", version: "1.0.0" };

const history = async (release: string) =>
  (
    JSON.parse(await env.helm(["history", release, "-n", env.ns, "-o", "json"])) as {
      revision: number;
      status: string;
      description: string;
    }[]
  ).map((r) => `${r.revision} ${r.status}`);

const stalled = (name: string) =>
  eventually(
    `HelmRelease ${name} Stalled`,
    async () => {
      const o = await env.hr(name);
      return condOf(o, "Stalled")?.status === "True" && o.status?.observedGeneration === o.metadata.generation
        ? o
        : undefined;
    },
    240_000,
    1000,
  );

/** Installed with a passing hook, then upgraded with a failing one. */
async function failUpgrade(name: string, upgrade: Record<string, unknown>): Promise<void> {
  await env.createRelease(name, CHART, { timeout: "30s", values: { hook: { fail: false } }, upgrade });
  await env.waitReady(name);
  await mgmt.client.patch(env.hrPath(name), "merge", { spec: { values: { hook: { fail: true } } } });
}

beforeAll(async () => {
  env = await startHelmReleaseEnv("hr-reset-force");
  await hookFailingChart(env.charts, "hooked", "1.0.0");
}, 120_000);
afterAll(() => env?.stop());

describe("HelmRelease remediateLastFailure, resetAt and forceAt", () => {
  it("no retries and remediateLastFailure unset: the failed upgrade stays for a person to see, the release Stalled", async () => {
    await failUpgrade("keep", {});
    const o = await stalled("keep");
    expect(o.status).toMatchObject({ upgradeFailures: 1, lastAttemptedReleaseAction: "upgrade" });
    expect(condOf(o, "Remediated")).toBeUndefined();
    expect(await history("keep")).toEqual(["1 deployed", "2 failed"]);
  }, 300_000);

  it("no retries and remediateLastFailure: true: the failed upgrade is rolled back", async () => {
    await failUpgrade("rollback", { remediation: { remediateLastFailure: true } });
    const o = await stalled("rollback");
    expect(condOf(o, "Remediated")).toMatchObject({ status: "True", reason: "RollbackSucceeded" });
    expect(await history("rollback")).toEqual(["1 superseded", "2 failed", "3 deployed"]);
  }, 300_000);

  it("resetAt gives a stalled release its retries back: one more upgrade is attempted", async () => {
    const before = (await env.hr("keep")) as HelmRelease;
    expect(condOf(before, "Stalled")?.status).toBe("True");
    const at = new Date().toISOString();
    await mgmt.client.patch(env.hrPath("keep"), "merge", {
      metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": at, "reconcile.fluxcd.io/resetAt": at } },
    });
    const o = await eventually(
      "the reset handled and a new attempt made",
      async () => {
        const h = await env.hr("keep");
        return h.status?.lastHandledResetAt === at && condOf(h, "Stalled")?.status === "True" ? h : undefined;
      },
      240_000,
      1000,
    );
    expect(o.status?.upgradeFailures).toBe(1);
    expect(await history("keep")).toEqual(["1 deployed", "2 failed", "3 failed"]);
  }, 300_000);

  it("`flotilla reconcile hr --force` upgrades a release that is in sync", async () => {
    await env.createRelease("forced", CHART, { timeout: "30s", values: { hook: { fail: false } } });
    await env.waitReady("forced");
    const r = await runCli([
      "reconcile",
      "hr",
      "forced",
      "--force",
      "-n",
      env.ns,
      "--kubeconfig",
      plane("management").kubeconfig,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("✔ applied revision 1.0.0");
    const o = await env.hr("forced");
    expect(o.status?.lastHandledForceAt).toBe(o.metadata.annotations?.["reconcile.fluxcd.io/forceAt"]);
    expect(condOf(o, "Ready")!.message).toBe(
      `Helm upgrade succeeded for release ${env.ns}/forced.v2 with chart hooked@1.0.0`,
    );
    expect(await history("forced")).toEqual(["1 superseded", "2 deployed"]);
  }, 300_000);
});
