// The test charts of test/support/charts.ts are packaged, served and rendered by the real helm
// (`helm template --repo`), and render what the HelmRelease tests rely on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseYamlDocuments } from "../../src/kustomize/yaml/parse.js";
import { type ChartRepo, helmEnv, runHelm, startChartRepo } from "../support/chart-repo.js";
import {
  benchChart,
  certManagerLike,
  clusterScopedChart,
  failingRenderChart,
  hookFailingChart,
  RENDER_FAILURE,
  UNPULLABLE_IMAGE,
} from "../support/charts.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

type Obj = {
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
};

let repo: ChartRepo;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  repo = await startChartRepo();
  await certManagerLike(repo);
  await hookFailingChart(repo, "hooked", "1.0.0");
  await failingRenderChart(repo, "broken", "1.0.0");
  await benchChart(repo);
  await clusterScopedChart(repo, "reader", "0.1.0");
  env = helmEnv(makeWorkDir("flotilla-test-charts-"));
}, 120_000);

afterAll(async () => {
  await repo?.close();
});

const template = async (release: string, chart: string, version: string, ...args: string[]) => {
  const out = await runHelm(
    ["template", release, chart, "--repo", repo.url, "--version", version, "--namespace", "apps", ...args],
    env,
  );
  return parseYamlDocuments(out, `${chart} rendered`).map((d) => d.value as unknown as Obj);
};
const names = (objs: Obj[]) => objs.map((o) => `${o.kind}/${o.metadata.name}`).sort();

describe("test charts, rendered by the real helm", () => {
  it("cert-manager v1.10.1 like the Kamaji guide's: three Deployments, the webhook Service, a ServiceAccount", async () => {
    const objs = await template("default-tenant1-cert-manager", "cert-manager", "v1.10.1", "--set", "replicaCount=2");
    expect(names(objs)).toEqual([
      "Deployment/default-tenant1-cert-manager",
      "Deployment/default-tenant1-cert-manager-cainjector",
      "Deployment/default-tenant1-cert-manager-webhook",
      "Service/default-tenant1-cert-manager-webhook",
      "ServiceAccount/default-tenant1-cert-manager",
    ]);
    expect(objs.every((o) => o.metadata.namespace === "apps")).toBe(true);
    const replicas = Object.fromEntries(
      objs.filter((o) => o.kind === "Deployment").map((o) => [o.metadata.name, o.spec?.replicas]),
    );
    expect(replicas["default-tenant1-cert-manager"]).toBe(2);
    expect(replicas["default-tenant1-cert-manager-cainjector"]).toBe(1);

    const byDefault = await template("certs", "cert-manager", "v1.10.1");
    expect(
      byDefault.find((o) => o.kind === "Deployment" && o.metadata.name === "certs-cert-manager")?.spec?.replicas,
    ).toBe(1);
  });

  it("cert-manager's values schema refuses a replicaCount that is not an integer", async () => {
    await expect(template("certs", "cert-manager", "v1.10.1", "--set-string", "replicaCount=two")).rejects.toThrow(
      /replicaCount/,
    );
  });

  it("the hook chart renders a post-install/post-upgrade Job with an unpullable image and a 1 s deadline, or a good one", async () => {
    const hook = (objs: Obj[]) => objs.find((o) => o.kind === "Job")!;
    const failing = hook(await template("hooked", "hooked", "1.0.0"));
    expect(failing.metadata.annotations?.["helm.sh/hook"]).toBe("post-install,post-upgrade");
    expect(failing.spec?.activeDeadlineSeconds).toBe(1);
    expect(JSON.stringify(failing.spec)).toContain(UNPULLABLE_IMAGE);
    const mended = hook(await template("hooked", "hooked", "1.0.0", "--set", "hook.fail=false"));
    expect(mended.spec?.activeDeadlineSeconds).toBeUndefined();
    expect(JSON.stringify(mended.spec)).not.toContain(".invalid");
  });

  it("the failing-render chart fails with its message, and renders once failRender is false", async () => {
    await expect(template("broken", "broken", "1.0.0")).rejects.toThrow(RENDER_FAILURE);
    expect(names(await template("broken", "broken", "1.0.0", "--set", "failRender=false"))).toEqual([
      "ConfigMap/broken-broken",
    ]);
  });

  it("the bench chart is Flux's benchmark app: ConfigMap, ServiceAccount, Service, a 0-replica Deployment", async () => {
    const objs = await template("app-7", "bench", "1.0.0", "--set", "message=v2");
    expect(names(objs)).toEqual(["ConfigMap/app-7", "Deployment/app-7", "Service/app-7", "ServiceAccount/app-7"]);
    expect(objs.find((o) => o.kind === "Deployment")?.spec?.replicas).toBe(0);
    expect((objs.find((o) => o.kind === "ConfigMap") as unknown as { data: object }).data).toEqual({
      release: "app-7",
      message: "v2",
    });
  });

  it("the cluster-scoped chart renders one ClusterRole, without a namespace", async () => {
    const objs = await template("tenant", "reader", "0.1.0");
    expect(names(objs)).toEqual(["ClusterRole/tenant-reader"]);
    expect(objs[0]!.metadata.namespace).toBeUndefined();
  });
});
