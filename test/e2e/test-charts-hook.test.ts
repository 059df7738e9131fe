// hookFailingChart (test/support/charts.ts) fails for real on the fleet's kwok nodes: the real helm
// installs its objects, then its post-install hook Job fails (its Pod can never pull its image, its
// deadline passes), so the release is failed; the same chart with hook.fail=false upgrades cleanly.
// HelmRelease remediation tests rely on exactly this.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChartRepo, helmEnv, runHelm, startChartRepo } from "../support/chart-repo.js";
import { hookFailingChart } from "../support/charts.js";
import { plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const cluster = planeCluster("management");
let repo: ChartRepo;
let ns: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  repo = await startChartRepo();
  await hookFailingChart(repo, "hooked", "1.0.0");
  ns = await testNamespace(cluster.client, "hook");
  env = { ...helmEnv(makeWorkDir("flotilla-hook-")), KUBECONFIG: plane("management").kubeconfig };
}, 120_000);

afterAll(async () => {
  await repo?.close();
});

const helm = (...args: string[]) =>
  runHelm([...args, "--repo", repo.url, "--version", "1.0.0", "--namespace", ns, "--timeout", "150s"], env);
const status = async () =>
  (
    JSON.parse(await runHelm(["status", "rel", "--namespace", ns, "--output", "json"], env)) as {
      info: { status: string };
    }
  ).info.status;

describe("the failing-hook test chart on kwok", () => {
  it("fails helm install in its post-install hook, after the release's objects were created", async () => {
    await expect(helm("install", "rel", "hooked")).rejects.toThrow(
      new RegExp(`failed post-install: resource Job/${ns}/rel-post-hook not ready. status: Failed`),
    );
    expect(await status()).toBe("failed");
    const job = (await cluster.get({
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: { name: "rel-post-hook", namespace: ns },
    })) as unknown as {
      status: { conditions: { type: string; reason: string }[] };
    };
    expect(job.status.conditions.find((c) => c.type === "Failed")?.reason).toBe("DeadlineExceeded");
    const cm = await cluster.get({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "rel-hooked", namespace: ns },
    });
    expect(cm).toBeDefined();
  }, 200_000);

  it("upgrades cleanly once hook.fail is false: the hook Job then completes", async () => {
    await helm("upgrade", "rel", "hooked", "--set", "hook.fail=false");
    expect(await status()).toBe("deployed");
  }, 200_000);
});
