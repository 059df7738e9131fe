// Benchmark: N HelmReleases (Flux's flux-benchmark shape: each installs benchChart — a 0-replica
// Deployment, ServiceAccount, Service, ConfigMap — from one HelmRepository into the management plane),
// reconciled by the real `flotilla controller` process with Flux's client limits (50 QPS, burst 300)
// and helm-controller's benchmark concurrency (10). Measures:
//   1. creation to all Ready, controller peak RSS and CPU, helm processes spawned;
//   2. idle cycles: every HelmRelease asked to reconcile (requestedAt) with nothing changed — helm
//      processes spawned per HelmRelease per cycle, cycle duration and controller CPU.
// helm processes are counted by pointing the controller's FLOTILLA_TOOLS_DIR at a directory whose
// bin/helm logs its subcommand and execs the pinned helm (every helm the process starts, the source
// controllers' included), and compared with the HelmRelease controller's own
// flotilla_helmrelease_helm_processes_total (0 when the controller does not expose it).
// Anchor (fluxcd/flux-benchmark RESULTS.md, Flux v2.6.0, 16-core runner, helm-controller at 2 CPU,
// concurrency 10): 100: 27 s / 190 MiB, 500: 2m45s / 240 MiB, 1000: 8m12s / 400 MiB.
//
// usage: npm run bench:helmreleases -- [--counts 100,500] [--cycles 2] [--concurrent 10]
//        (bench/helmreleases.bench.mjs passes them here as FLOTILLA_BENCH_* variables)
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { it } from "vitest";
import { REQUESTED_AT_ANNOTATION } from "../src/api/meta/annotations.js";
import { KubeClient, setDefaultRateLimit } from "../src/kube/client.js";
import { endpointFromKubeconfigFile } from "../src/kube/kubeconfig.js";
import { downFleet, upFleet } from "../src/local/index.js";
import { freePort } from "../src/local/ports.js";
import { helmBinary, startChartRepo } from "../test/support/chart-repo.js";
import { benchChart } from "../test/support/charts.js";
import { cpuSeconds, isReady, procStatus, startBenchController, until } from "./support/controller-bench.mjs";
import { makeWorkDir } from "../src/util/work-dir.js";

const COUNTS = (process.env.FLOTILLA_BENCH_COUNTS ?? "100,500").split(",").map(Number);
const CYCLES = Number(process.env.FLOTILLA_BENCH_CYCLES ?? 2);
const CONCURRENT = Number(process.env.FLOTILLA_BENCH_CONCURRENT ?? 10);
const MiB = 1024 * 1024;
const NS = "apps";
const HR = "/apis/helm.toolkit.fluxcd.io/v2/namespaces/flux-system/helmreleases";
const HREPO = "/apis/source.toolkit.fluxcd.io/v1/namespaces/flux-system/helmrepositories";

type Obj = {
  metadata: { name: string; generation?: number };
  status?: {
    observedGeneration?: number;
    lastHandledReconcileAt?: string;
    conditions?: { type: string; status: string }[];
  };
};

// The benchmark's own client must not be what limits the run.
setDefaultRateLimit({ qps: 1000, burst: 2000 });

/** A tools directory whose bin/helm appends its subcommand to `log`, then runs the pinned helm. */
function countingHelm(dir: string, log: string): string {
  mkdirSync(join(dir, "bin"), { recursive: true });
  const shim = join(dir, "bin", "helm");
  writeFileSync(shim, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\nexec '${helmBinary()}' "$@"\n`);
  chmodSync(shim, 0o755);
  return dir;
}

/** helm processes since `from` lines of the log: the count, and the count per subcommand. */
function helmSpawns(log: string, from: number) {
  const lines = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
  const by = new Map<string, number>();
  for (const cmd of lines.slice(from)) by.set(cmd, (by.get(cmd) ?? 0) + 1);
  return { total: lines.length, since: lines.length - from, by };
}
const perRelease = (by: Map<string, number>, n: number) =>
  [...by.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([cmd, c]) => `${cmd} ${(c / n).toFixed(2)}`)
    .join(", ") || "none";

/** flotilla_helmrelease_helm_processes_total from the controller's /metrics (the HelmRelease controller's own count). */
async function controllerCount(healthPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
  return text
    .split("\n")
    .filter((l) => l.startsWith("flotilla_helmrelease_helm_processes_total"))
    .reduce((a, l) => a + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
}

const batches = async (n: number, fn: (i: number) => Promise<unknown>) => {
  for (let at = 0; at < n; at += 50)
    await Promise.all(Array.from({ length: Math.min(50, n - at) }, (_, k) => fn(at + k)));
};

async function runOnce(n: number) {
  const dir = makeWorkDir("flotilla-bench-hr-");
  const storage = makeWorkDir("flotilla-bench-hr-storage-");
  const log = join(dir, "helm-spawns.log");
  const fleet = await upFleet({ dir: join(dir, "fleet"), tenants: 0 });
  const kubeconfig = fleet.state.planes[0]!.kubeconfig;
  const client = new KubeClient(endpointFromKubeconfigFile(kubeconfig));
  const repo = await startChartRepo();
  let child: ReturnType<typeof startBenchController> | undefined;
  try {
    await benchChart(repo);
    await client.create("/api/v1/namespaces", { metadata: { name: NS } });
    await client.create("/api/v1/namespaces", { metadata: { name: "flux-system" } });
    const healthPort = await freePort();
    child = startBenchController({
      kubeconfig,
      storage,
      storagePort: await freePort(),
      healthPort,
      concurrent: CONCURRENT,
      qps: 50,
      burst: 300,
      env: { FLOTILLA_TOOLS_DIR: countingHelm(join(dir, "tools"), log) },
    });
    const pid = child.pid!;
    await until("the CRDs", () => client.get(HR).then(() => true), 60_000, 250);
    await client.create(HREPO, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "HelmRepository",
      metadata: { name: "charts", namespace: "flux-system" },
      spec: { url: repo.url, interval: "60m" },
    });
    await until("the HelmRepository Ready", async () => isReady(await client.get<Obj>(`${HREPO}/charts`)), 60_000, 250);

    const cpuBefore = cpuSeconds(pid);
    const spawnsBefore = helmSpawns(log, 0).total;
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, procStatus(pid, "VmRSS"))), 250);
    const t0 = performance.now();
    await batches(n, (i) =>
      client.create(HR, {
        apiVersion: "helm.toolkit.fluxcd.io/v2",
        kind: "HelmRelease",
        metadata: { name: `app-${i}`, namespace: "flux-system" },
        spec: {
          interval: "60m",
          targetNamespace: NS,
          chart: {
            spec: {
              chart: "bench",
              version: "1.0.0",
              interval: "60m",
              sourceRef: { kind: "HelmRepository", name: "charts" },
            },
          },
        },
      }),
    );
    const list = async () => (await client.get<{ items: Obj[] }>(HR)).items;
    await until(`${n} HelmReleases Ready`, async () => (await list()).filter(isReady).length === n, 60 * 60_000);
    const seconds = (performance.now() - t0) / 1000;
    const install = helmSpawns(log, spawnsBefore);
    const cpu = cpuSeconds(pid) - cpuBefore;

    const cycles = [];
    for (let c = 1; c <= CYCLES; c++) {
      const token = `bench-${Date.now()}-${c}`;
      const from = helmSpawns(log, 0).total;
      const counted0 = await controllerCount(healthPort);
      const cpu0 = cpuSeconds(pid);
      const c0 = performance.now();
      await batches(n, (i) =>
        client.patch(`${HR}/app-${i}`, "merge", { metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: token } } }),
      );
      await until(
        `idle cycle ${c} handled by all ${n}`,
        async () => (await list()).filter((o) => o.status?.lastHandledReconcileAt === token && isReady(o)).length === n,
        60 * 60_000,
      );
      const spawned = helmSpawns(log, from);
      cycles.push({
        c,
        seconds: (performance.now() - c0) / 1000,
        cpu: cpuSeconds(pid) - cpu0,
        perRelease: spawned.since / n,
        counted: ((await controllerCount(healthPort)) - counted0) / n,
        by: perRelease(spawned.by, n),
      });
    }
    clearInterval(sampler);
    peakRss = Math.max(peakRss, procStatus(pid, "VmHWM"));
    return {
      n,
      seconds,
      cpu,
      peakRss,
      install: { perRelease: install.since / n, by: perRelease(install.by, n) },
      cycles,
    };
  } finally {
    child?.kill("SIGKILL");
    await repo.close();
    await downFleet(join(dir, "fleet")).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  }
}

const fmt = (s: number) => (s >= 60 ? `${Math.floor(s / 60)}m${(s % 60).toFixed(0)}s` : `${s.toFixed(1)} s`);
const FLUX: Record<number, string> = { 100: "27 s / 190 MiB", 500: "2m45s / 240 MiB", 1000: "8m12s / 400 MiB" };

it(`HelmReleases to Ready, and idle cycles (counts ${COUNTS.join(", ")})`, async () => {
  const out = [
    `machine: ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}; --concurrent ${CONCURRENT}, 50 QPS / burst 300`,
    "| HelmReleases | creation to all Ready | per HelmRelease | controller peak RSS | controller CPU | helm processes per HelmRelease | Flux v2.6.0 anchor |",
    "| ------------ | --------------------- | --------------- | ------------------- | -------------- | ------------------------------ | ------------------ |",
  ];
  const idle = [
    "",
    "| HelmReleases | idle cycle | duration | controller CPU | helm processes per HelmRelease (by subcommand) | of them counted by the HelmRelease controller |",
    "| ------------ | ---------- | -------- | -------------- | ---------------------------------------------- | --------------------------------------------- |",
  ];
  for (const n of COUNTS) {
    const r = await runOnce(n);
    out.push(
      `| ${n} | ${fmt(r.seconds)} | ${((r.seconds * 1000) / n).toFixed(0)} ms | ${Math.round(r.peakRss / MiB)} MiB | ${r.cpu.toFixed(1)} s | ${r.install.perRelease.toFixed(2)} (${r.install.by}) | ${FLUX[n] ?? "—"} |`,
    );
    for (const c of r.cycles)
      idle.push(
        `| ${n} | ${c.c} | ${fmt(c.seconds)} | ${c.cpu.toFixed(1)} s | ${c.perRelease.toFixed(2)} (${c.by}) | ${c.counted.toFixed(2)} |`,
      );
  }
  console.log([...out, ...idle].join("\n"));
});
