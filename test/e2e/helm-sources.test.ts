// HelmRepository and HelmChart against a real chart repository on loopback (charts packaged by the
// real helm), with version choices checked against what `helm pull` picks for the same constraint.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HelmChart, type HelmRepository, helmChartCrd, helmRepositoryCrd } from "../../src/api/source/helm.js";
import { HelmChartReconciler } from "../../src/controllers/helmchart/reconciler.js";
import { HelmRepositoryReconciler } from "../../src/controllers/helmrepository/reconciler.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { Controller } from "../../src/runtime/controller.js";
import { EventRecorder } from "../../src/runtime/events.js";
import { createLogger } from "../../src/runtime/logger.js";
import { startArtifactServer } from "../../src/sources/artifact/server.js";
import { Storage } from "../../src/sources/artifact/storage.js";
import { type ChartRepo, helmEnv, runHelm, startChartRepo } from "../support/chart-repo.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const cluster = planeCluster("management");
const log = createLogger({ level: "error", write: () => {} });
const kind = (k: string) => ({ group: "source.toolkit.fluxcd.io", version: "v1", kind: k });
let repo: ChartRepo;
let privateRepo: ChartRepo;
let ns: string;
let controllers: Controller[] = [];
let artifacts: Awaited<ReturnType<typeof startArtifactServer>>;

const base = (plural: string) => `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/${plural}`;
const ready = (o: { status?: { conditions?: { type: string; status: string; reason: string; message: string }[] } }) =>
  o.status?.conditions?.find((c) => c.type === "Ready");
const CONSTRAINTS = ["*", "6.0.x", "^5", "~6.1", ">=6.2.0-rc.0", ">=6.0.0 <6.2.0", "5.9.0"];

beforeAll(async () => {
  for (const crd of [helmRepositoryCrd(), helmChartCrd()])
    await cluster.apply(crd as unknown as KubeObject, "flotilla-test", { force: true });
  for (const k of ["HelmRepository", "HelmChart"]) await cluster.discovery.waitForMapping(kind(k), 10_000);
  repo = await startChartRepo();
  for (const v of ["5.8.0", "5.9.0", "6.0.0", "6.0.3", "6.1.0", "6.1.4", "6.2.0-rc.1"])
    await repo.addChart("podinfo", v);
  privateRepo = await startChartRepo({ auth: { username: "helm", password: "chart-pass" } });
  await privateRepo.addChart("secret-app", "1.0.0");
  await repo.addChart("with-values", "1.0.0", { files: { "values-prod.yaml": "message: prod\nextra: true\n" } });
  ns = await testNamespace(cluster.client, "helm");
  const storage = new Storage(makeWorkDir("flotilla-storage-"), "http://127.0.0.1:0");
  artifacts = await startArtifactServer(storage, "127.0.0.1", 0);
  (storage as { baseUrl: string }).baseUrl = artifacts.url;
  const events = new EventRecorder(cluster.client, "source-controller", log);
  controllers = [
    new Controller({
      name: "helmrepository",
      kind: kind("HelmRepository"),
      cluster,
      log,
      namespace: ns,
      reconciler: new HelmRepositoryReconciler(cluster, storage, events),
    }),
    new Controller({
      name: "helmchart",
      kind: kind("HelmChart"),
      cluster,
      log,
      namespace: ns,
      reconciler: new HelmChartReconciler(cluster, storage, events),
    }),
  ];
  for (const c of controllers) await c.start();
});

afterAll(async () => {
  for (const c of controllers) await c.stop();
  await Promise.all([repo?.close(), privateRepo?.close(), artifacts?.close()]);
});

describe("HelmRepository and HelmChart", () => {
  it("stores the repository index with a sha256 revision", async () => {
    await cluster.client.create(base("helmrepositories"), {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "HelmRepository",
      metadata: { name: "charts", namespace: ns },
      spec: { url: repo.url, interval: "10m" },
    });
    const obj = await eventually("Ready", async () => {
      const o = await cluster.client.get<HelmRepository>(`${base("helmrepositories")}/charts`);
      return ready(o)?.status === "True" ? o : undefined;
    });
    expect(obj.status!.artifact!.revision).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(ready(obj)!.message).toBe(`stored artifact: revision '${obj.status!.artifact!.revision}'`);
    expect(obj.status!.artifact!.path).toMatch(new RegExp(`^helmrepository/${ns}/charts/index-[0-9a-f]{64}\\.yaml$`));
  });

  it.each(CONSTRAINTS)("version constraint %s picks the same chart version as helm pull", async (constraint) => {
    const name = `podinfo-${CONSTRAINTS.indexOf(constraint)}`;
    await cluster.client.create(base("helmcharts"), {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "HelmChart",
      metadata: { name, namespace: ns },
      spec: {
        chart: "podinfo",
        version: constraint,
        sourceRef: { kind: "HelmRepository", name: "charts" },
        interval: "10m",
      },
    });
    const chart = await eventually(`HelmChart ${name} Ready`, async () => {
      const o = await cluster.client.get<HelmChart>(`${base("helmcharts")}/${name}`);
      return ready(o)?.status === "True" ? o : undefined;
    });
    const dir = makeWorkDir("flotilla-helm-pull-");
    await runHelm(["pull", "--repo", repo.url, "podinfo", "--version", constraint, "-d", dir], helmEnv(dir));
    const pulled = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
    expect(`podinfo-${chart.status!.artifact!.revision}.tgz`).toBe(pulled);
    expect(ready(chart)!.message).toBe(`pulled 'podinfo' chart with version '${chart.status!.artifact!.revision}'`);
    const res = await fetch(chart.status!.artifact!.url);
    expect(res.status).toBe(200);
  });

  it("uses the repository's basic auth for the index and the chart, and reports a missing chart", async () => {
    await cluster.client.create(`/api/v1/namespaces/${ns}/secrets`, {
      metadata: { name: "helm-auth" },
      stringData: { username: "helm", password: "chart-pass" },
    });
    await cluster.client.create(base("helmrepositories"), {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "HelmRepository",
      metadata: { name: "private", namespace: ns },
      spec: { url: privateRepo.url, interval: "10m", secretRef: { name: "helm-auth" } },
    });
    for (const [name, chartName] of [
      ["secret-app", "secret-app"],
      ["missing", "no-such-chart"],
    ] as const) {
      await cluster.client.create(base("helmcharts"), {
        apiVersion: "source.toolkit.fluxcd.io/v1",
        kind: "HelmChart",
        metadata: { name, namespace: ns },
        spec: { chart: chartName, sourceRef: { kind: "HelmRepository", name: "private" }, interval: "10m" },
      });
    }
    await eventually(
      "the private chart",
      async () =>
        (await cluster.client.get<HelmChart>(`${base("helmcharts")}/secret-app`)).status?.artifact?.revision ===
        "1.0.0",
    );
    const missing = await eventually("the missing chart reported", async () => {
      const c = ready(await cluster.client.get<HelmChart>(`${base("helmcharts")}/missing`));
      return c?.status === "False" ? c : undefined;
    });
    expect(missing.message).toContain("no chart name found: no-such-chart");
    expect(privateRepo.requests.unauthorized).toBe(0);
  });

  it("merges valuesFiles (relative to the chart) into a re-packaged chart versioned +<generation>", async () => {
    await cluster.client.create(base("helmcharts"), {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "HelmChart",
      metadata: { name: "with-values", namespace: ns },
      spec: {
        chart: "with-values",
        sourceRef: { kind: "HelmRepository", name: "charts" },
        interval: "10m",
        valuesFiles: ["values.yaml", "values-prod.yaml"],
      },
    });
    const chart = await eventually("the re-packaged chart", async () => {
      const o = await cluster.client.get<HelmChart>(`${base("helmcharts")}/with-values`);
      return ready(o)?.status === "True" ? o : undefined;
    });
    expect(chart.status!.artifact!.revision).toBe("1.0.0+1");
    expect(ready(chart)).toMatchObject({
      reason: "ChartPackageSucceeded",
      message:
        "packaged 'with-values' chart with version '1.0.0+1' and merged values files [values.yaml values-prod.yaml]",
    });
    const dir = makeWorkDir("flotilla-helm-show-");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(dir, "c.tgz"), Buffer.from(await (await fetch(chart.status!.artifact!.url)).arrayBuffer()));
    const values = await runHelm(["show", "values", join(dir, "c.tgz")], helmEnv(dir));
    expect(values.trim()).toBe("extra: true\nmessage: prod");
  });
});
