#!/usr/bin/env node
// Benchmark: N Kustomizations (Flux's flux-benchmark shape: each a small app — Deployment with 0
// replicas, ServiceAccount, Service, ConfigMap — from one GitRepository into the management plane),
// reconciled by the real `flotilla controller` process (source + Kustomization controllers, Flux's
// default client limits 50 QPS / burst 300, --concurrent 20 as Flux's run). Measures the time from
// creating the Kustomizations to all Ready, and the controller's peak RSS and CPU time.
// Context only, never a ratio (the comparison is bench/vs-flux.bench.mjs, Flux run here side by side):
// Flux v2.9.0's published figures on a 16-core runner, kustomize-controller at 2 CPU,
// concurrency 20 — 100: 26 s / 134 MiB, 500: 2m0s / 183 MiB, 1000: 4m13s / 223 MiB.
//
// usage: node bench/kustomizations.bench.mjs [--counts 100,500,1000] [--concurrent 20]
import { mkdtempSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";

const argOf = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const COUNTS = argOf("counts", "100,500,1000").split(",").map(Number);
const CONCURRENT = Number(argOf("concurrent", "20"));
const QPS = argOf("kube-api-qps", "50");
const BURST = argOf("kube-api-burst", "300");
const MiB = 1024 * 1024;
const NS = "apps";

import {
  appFiles,
  createAppKustomizations,
  createAppsSource,
  cpuSeconds,
  isReady,
  KS,
  procStatus,
  startBenchController,
  until,
} from "./support/controller-bench.mjs";

const { upFleet, downFleet } = await import("../dist/local/index.js");
const { freePort } = await import("../dist/local/ports.js");
const { startGitHttpServer } = await import("../dist/demo/git-http-server.js");
const { KubeClient, setDefaultRateLimit } = await import("../dist/kube/client.js");
const { endpointFromKubeconfigFile } = await import("../dist/kube/kubeconfig.js");

// The benchmark's own client must not be what limits the run.
setDefaultRateLimit({ qps: 1000, burst: 2000 });

/** apiserver_request_total by verb and resource, from the apiserver's own /metrics. */
async function apiserverRequests(client) {
  const text = await client.get("/metrics");
  const counts = new Map();
  for (const line of text.split("\n")) {
    if (!line.startsWith("apiserver_request_total{")) continue;
    const labels = Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const key = `${labels.verb} ${labels.resource}${labels.subresource ? `/${labels.subresource}` : ""}${labels.dry_run ? " (dry-run)" : ""}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(line.slice(line.lastIndexOf(" ") + 1)));
  }
  return counts;
}

function diffCounts(before, after, n) {
  return [...after.entries()]
    .map(([k, v]) => [k, v - (before.get(k) ?? 0)])
    .filter(([, v]) => v >= n / 2)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k}: ${(v / n).toFixed(1)}`)
    .join(", ");
}

async function runOnce(n) {
  const dir = mkdtempSync(join(tmpdir(), "flotilla-bench-ks-"));
  const storage = mkdtempSync(join(tmpdir(), "flotilla-bench-ks-storage-"));
  const fleet = await upFleet({ dir, tenants: 0 });
  const kubeconfig = fleet.state.planes[0].kubeconfig;
  const client = new KubeClient(endpointFromKubeconfigFile(kubeconfig));
  const git = await startGitHttpServer();
  let child;
  try {
    const healthPort = await freePort();
    const repo = await git.createRepo("apps");
    let files = {};
    for (let i = 0; i < n; i++) files = { ...files, ...appFiles(i) };
    await repo.commit(files, `${n} apps`);
    await client.create("/api/v1/namespaces", { metadata: { name: NS } });
    await client.create("/api/v1/namespaces", { metadata: { name: "flux-system" } });
    child = startBenchController({
      kubeconfig,
      storage,
      storagePort: await freePort(),
      healthPort,
      concurrent: CONCURRENT,
      qps: QPS,
      burst: BURST,
    });
    await createAppsSource(client, repo.url, "10m");
    const cpuBefore = cpuSeconds(child.pid);
    // The rest of the cluster shares the same 2 cores: apiserver, etcd, kcm (ReplicaSets, Endpoints).
    const planeProcs = [
      ...fleet.state.planes[0].processes.map((p) => [p.component, p.pid]),
      ["etcd", fleet.state.etcd.process.pid],
    ];
    const planeBefore = planeProcs.map(([, pid]) => cpuSeconds(pid));
    const requestsBefore = await apiserverRequests(client);

    const t0 = performance.now();
    let peakRss = 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, procStatus(child.pid, "VmRSS"));
    }, 250);
    await createAppKustomizations(client, n, NS);
    const created = (performance.now() - t0) / 1000;
    let ready = 0;
    await until(
      `${n} Kustomizations Ready`,
      async () => {
        ready = (await client.get(KS)).items.filter(isReady).length;
        return ready === n;
      },
      30 * 60_000,
    );
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const hwm = procStatus(child.pid, "VmHWM");
    const cpu = cpuSeconds(child.pid) - cpuBefore;
    const planeCpu = planeProcs
      .map(([name, pid], i) => `${name} ${(cpuSeconds(pid) - planeBefore[i]).toFixed(0)} s`)
      .join(", ");
    const requests = diffCounts(requestsBefore, await apiserverRequests(client), n);
    // Mean reconcile time of the Kustomization controller, from its own Prometheus metrics.
    const metrics = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
    const sumOf = (name) =>
      metrics
        .split("\n")
        .filter((l) => l.startsWith(name) && l.includes('kind="Kustomization"'))
        .reduce((a, l) => a + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
    const meanReconcile = sumOf("gotk_reconcile_duration_seconds_sum") / sumOf("gotk_reconcile_duration_seconds_count");
    return { n, seconds, created, peakRss: Math.max(peakRss, hwm), cpu, requests, meanReconcile, planeCpu };
  } finally {
    child?.kill("SIGKILL");
    await git.close();
    await downFleet(dir).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  }
}

const fmt = (s) => (s >= 60 ? `${Math.floor(s / 60)}m${(s % 60).toFixed(0)}s` : `${s.toFixed(1)} s`);
const flux = { 100: ["26 s", 134], 500: ["2m0s", 183], 1000: ["4m13s", 223] };
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}; --concurrent ${CONCURRENT} --kube-api-qps ${QPS} --kube-api-burst ${BURST}`,
);
console.log(
  "| Kustomizations | creation to all Ready | per Kustomization | controller peak RSS | controller CPU | context: Flux's published figure (16-core runner, not run here) |",
);
console.log(
  "| -------------- | --------------------- | ----------------- | ------------------- | -------------- | ---------------------------- |",
);
const perKs = [];
for (const n of COUNTS) {
  const r = await runOnce(n);
  perKs.push(
    `${n}: mean reconcile ${(r.meanReconcile * 1000).toFixed(0)} ms; cluster CPU during the run: ${r.planeCpu}; requests: ${r.requests}`,
  );
  const anchor = flux[n] ? `${flux[n][0]} / ${flux[n][1]} MiB` : "—";
  console.log(
    `| ${n} | ${fmt(r.seconds)} (creates took ${r.created.toFixed(1)} s) | ${((r.seconds * 1000) / n).toFixed(0)} ms | ${Math.round(r.peakRss / MiB)} MiB | ${r.cpu.toFixed(1)} s | ${anchor} |`,
  );
}
console.log(
  "\napiserver requests per Kustomization (verb resource: count, including the benchmark's own creates and polls):",
);
for (const line of perKs) console.log(`- ${line}`);
