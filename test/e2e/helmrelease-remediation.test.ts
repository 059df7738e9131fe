// Remediation with the real helm on the management plane: a post-install hook that fails (kwok, see
// test/support/charts.ts) is retried after an uninstall, then stalls with the attempts counted; an
// upgrade whose post-upgrade hook fails is rolled back to the previous revision.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelmRelease } from "../../src/api/helm/helmrelease.js";
import { type ChartRepo, helmEnv, runHelm, startChartRepo } from "../support/chart-repo.js";
import { hookFailingChart } from "../support/charts.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const mgmt = planeCluster("management");
let charts: ChartRepo;
let controller: ControllerProcess;
let ns: string;

const hrPath = (name: string) => `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases/${name}`;
const hr = (name: string) => mgmt.client.get<HelmRelease>(hrPath(name));
const cond = (o: HelmRelease, type: string) => o.status?.conditions?.find((c) => c.type === type);

async function helmHistory(release: string) {
  const dir = makeWorkDir("flotilla-helm-history-");
  const out = await runHelm(
    ["history", release, "-n", ns, "-o", "json", "--kubeconfig", plane("management").kubeconfig],
    helmEnv(dir),
  );
  return JSON.parse(out) as { revision: number; status: string; description: string }[];
}

/** This test's controller watches only its shard: the e2e files share one fleet. */
const shard = () => ({ "flotilla.dev/shard": ns });

async function createRelease(name: string, spec: Record<string, unknown>) {
  await mgmt.client.create(`/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases`, {
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    kind: "HelmRelease",
    metadata: { name, namespace: ns, labels: shard() },
    spec: {
      interval: "10m",
      timeout: "30s",
      chart: {
        // The HelmChart made from the template carries its labels: the same shard.
        metadata: { labels: shard() },
        spec: { chart: "hooked", version: "1.0.0", sourceRef: { kind: "HelmRepository", name: "charts" } },
      },
      ...spec,
    },
  });
}

beforeAll(async () => {
  ns = await testNamespace(mgmt.client, "hr-remediation");
  charts = await startChartRepo();
  await hookFailingChart(charts, "hooked", "1.0.0");
  controller = startController({
    namespace: ns,
    shard: ns,
    storagePath: makeWorkDir("flotilla-hr-remediation-"),
  });
  await controller.healthUrl();
  // The controller installs the CRDs as it starts (--install-crds): wait until HelmRelease is served.
  await eventually(
    "the HelmRelease CRD served",
    () => mgmt.client.get(`/apis/helm.toolkit.fluxcd.io/v2/namespaces/${ns}/helmreleases`).then(() => true),
    60_000,
    1000,
  );
  await eventually(
    "the HelmRepository created",
    () =>
      mgmt.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/helmrepositories`, {
        apiVersion: "source.toolkit.fluxcd.io/v1",
        kind: "HelmRepository",
        metadata: { name: "charts", namespace: ns, labels: shard() },
        spec: { interval: "10m", url: charts.url },
      }),
    60_000,
    1000,
  );
}, 120_000);

afterAll(async () => {
  controller?.child.kill("SIGTERM");
  await charts?.close();
});

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
      `Helm install failed for release ${ns}/inst with chart hooked@1.0.0`,
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
