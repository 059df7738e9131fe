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
// --decryption: the cost of SOPS decryption per Kustomization. Each count N runs N Kustomizations whose
// app carries a plain Secret manifest and N more whose Secret is sops-encrypted (age) with
// spec.decryption, created together in one run against one controller; reported per group: mean
// reconcile (the controller's own histogram, by name) and when the group was all Ready.
//
// usage: node bench/kustomizations.bench.mjs [--counts 100,500,1000] [--concurrent 20] [--decryption]
import { mkdtempSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
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
const DECRYPTION = process.argv.includes("--decryption");

import {
  appFiles,
  childCpuSeconds,
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
const sops = DECRYPTION ? await import("./support/sops-bench.mjs") : undefined;
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
    // --decryption: app-0…N-1 with a plain Secret, app-N…2N-1 with the same Secret encrypted by sops.
    const age = sops?.benchAgeIdentity();
    if (sops)
      for (let i = 0; i < 2 * n; i++) {
        const name = `app-${i}`;
        const data = { password: `bench-password-${i}`, token: `bench-token-${i}` };
        const secret = { apiVersion: "v1", kind: "Secret", metadata: { name }, stringData: data };
        if (i >= n) files = { ...files, ...appFiles(i) };
        files[`apps/${name}/secret${i < n ? "" : ".enc"}.yaml`] =
          i < n ? `${JSON.stringify(secret)}\n` : sops.encryptedSecret(name, data, age.recipient);
      }
    await repo.commit(files, `${n} apps`);
    await client.create("/api/v1/namespaces", { metadata: { name: NS } });
    await client.create("/api/v1/namespaces", { metadata: { name: "flux-system" } });
    if (age)
      await client.create("/api/v1/namespaces/flux-system/secrets", {
        metadata: { name: "sops-age" },
        stringData: { "age.agekey": age.file },
      });
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
    const childCpuBefore = childCpuSeconds(child.pid);
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
    // --decryption: the decrypting group first, then the plain one, each waited for all Ready, with the
    // controller's CPU (and its children's: sops) read per phase. The first phase also pays for unpacking
    // the artifact, so decryption's share is if anything overstated.
    const phases = [];
    const phase = async (from, spec) => {
      const [p0, c0, k0] = [performance.now(), cpuSeconds(child.pid), childCpuSeconds(child.pid)];
      await createAppKustomizations(client, n, NS, { from, spec });
      const created = (performance.now() - p0) / 1000;
      const mine = (o) => Number(o.metadata.name.slice(4)) >= from && Number(o.metadata.name.slice(4)) < from + n;
      await until(
        `${n} Kustomizations Ready`,
        async () => (await client.get(KS)).items.filter((o) => mine(o) && isReady(o)).length === n,
        30 * 60_000,
      );
      phases.push({
        created,
        seconds: (performance.now() - p0) / 1000,
        cpu: cpuSeconds(child.pid) - c0,
        childCpu: childCpuSeconds(child.pid) - k0,
      });
    };
    if (sops) await phase(n, { decryption: { provider: "sops", secretRef: { name: "sops-age" } } });
    await phase(0, {});
    const created = phases.at(-1).created;
    const total = sops ? 2 * n : n;
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const hwm = procStatus(child.pid, "VmHWM");
    const cpu = cpuSeconds(child.pid) - cpuBefore;
    const childCpu = childCpuSeconds(child.pid) - childCpuBefore;
    const planeCpu = planeProcs
      .map(([name, pid], i) => `${name} ${(cpuSeconds(pid) - planeBefore[i]).toFixed(0)} s`)
      .join(", ");
    const requests = diffCounts(requestsBefore, await apiserverRequests(client), total);
    // Mean reconcile time of the Kustomization controller, from its own Prometheus metrics.
    const metrics = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
    const sumOf = (name, inGroup = () => true) =>
      metrics
        .split("\n")
        .filter((l) => l.startsWith(name) && l.includes('kind="Kustomization"'))
        .filter((l) => inGroup(Number(/name="app-(\d+)"/.exec(l)?.[1])))
        .reduce((a, l) => a + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
    const mean = (inGroup) =>
      sumOf("gotk_reconcile_duration_seconds_sum", inGroup) / sumOf("gotk_reconcile_duration_seconds_count", inGroup);
    const meanReconcile = mean();
    const groups = [mean((i) => i < n), mean((i) => i >= n)];
    const peak = Math.max(peakRss, hwm);
    return { n, seconds, created, peakRss: peak, cpu, childCpu, requests, meanReconcile, planeCpu, groups, phases };
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
if (DECRYPTION) {
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}; ${new Date().toISOString()}`,
  );
  console.log(
    "| N Kustomizations | Secret | created to all Ready | mean reconcile | controller CPU | its children's CPU (sops) |",
  );
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const n of COUNTS) {
    const r = await runOnce(n);
    const ms = (s) => `${(s * 1000).toFixed(0)} ms`;
    const row = (label, p, g) =>
      console.log(
        `| ${n} | ${label} | ${fmt(p.seconds)} | ${ms(r.groups[g])} | ${p.cpu.toFixed(1)} s | ${p.childCpu.toFixed(1)} s |`,
      );
    row("sops-encrypted, spec.decryption (first)", r.phases[0], 1);
    row("plain (second)", r.phases[1], 0);
    const [d, p] = r.phases;
    console.log(
      `\nper Kustomization, decrypting minus plain: ${ms((d.seconds - p.seconds) / n)} wall, ` +
        `${ms((d.cpu - p.cpu) / n)} controller CPU + ${ms((d.childCpu - p.childCpu) / n)} sops CPU`,
    );
  }
  console.log(
    `load average at end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  process.exit(0);
}
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
