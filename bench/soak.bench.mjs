#!/usr/bin/env node
// Soak: N Kustomizations (Flux's benchmark app shape) reconciled by the real `flotilla controller` on a
// local plane for M minutes, with a commit every minute (one app changes; every Kustomization sees the new
// revision and reconciles). The controller's RSS and open sockets are sampled every 15 s; the result is
// their slope over time (least squares, after a warm-up), which should be flat: a leak shows as a slope.
//
// usage: node bench/soak.bench.mjs [--count 1000] [--minutes 30] [--warmup-minutes 5] [--concurrent 20]
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import {
  appFiles,
  createAppKustomizations,
  createAppsSource,
  cpuSeconds,
  GR,
  isReady,
  KS,
  openSockets,
  procStatus,
  startBenchController,
  until,
} from "./support/controller-bench.mjs";

const argOf = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = argOf("count", 1000);
const MINUTES = argOf("minutes", 30);
const WARMUP = argOf("warmup-minutes", Math.min(5, MINUTES / 3));
const CONCURRENT = argOf("concurrent", 20);
const MiB = 1024 * 1024;

const { upFleet, downFleet } = await import("../dist/local/index.js");
const { freePort } = await import("../dist/local/ports.js");
const { startGitHttpServer } = await import("../dist/demo/git-http-server.js");
const { KubeClient, setDefaultRateLimit } = await import("../dist/kube/client.js");
const { endpointFromKubeconfigFile } = await import("../dist/kube/kubeconfig.js");
setDefaultRateLimit({ qps: 1000, burst: 2000 }); // the benchmark's own client must not be the limit

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const sxy = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return sxx ? sxy / sxx : 0;
}

const dir = mkdtempSync(join(tmpdir(), "flotilla-soak-"));
const storage = mkdtempSync(join(tmpdir(), "flotilla-soak-storage-"));
const fleet = await upFleet({ dir, tenants: 0 });
const kubeconfig = fleet.state.planes[0].kubeconfig;
const client = new KubeClient(endpointFromKubeconfigFile(kubeconfig));
const git = await startGitHttpServer();
let child;
try {
  const repo = await git.createRepo("apps");
  let files = {};
  for (let i = 0; i < N; i++) files = { ...files, ...appFiles(i) };
  await repo.commit(files, `${N} apps`);
  for (const name of ["apps", "flux-system"]) await client.create("/api/v1/namespaces", { metadata: { name } });
  const healthPort = await freePort();
  child = startBenchController({
    kubeconfig,
    storage,
    storagePort: await freePort(),
    healthPort,
    concurrent: CONCURRENT,
    qps: 50,
    burst: 300,
  });
  await createAppsSource(client, repo.url, "60m");
  await createAppKustomizations(client, N, "apps");
  await until(
    `${N} Kustomizations Ready`,
    async () => (await client.get(KS)).items.filter(isReady).length === N,
    30 * 60_000,
  );

  const t0 = performance.now();
  const cpu0 = cpuSeconds(child.pid);
  const samples = [];
  // The JavaScript heap in use and the Kustomization queue's depth come from the controller's /metrics: RSS
  // alone cannot tell a leak from the allocator keeping pages, nor growth from a backlog.
  const metric = (text, name, labels = "") =>
    Number(text.match(new RegExp(`^${name}${labels.replace(/[{}]/g, "\\$&")} (\\S+)$`, "m"))?.[1] ?? NaN);
  const sample = async () => {
    const text = await fetch(`http://127.0.0.1:${healthPort}/metrics`)
      .then((r) => r.text())
      .catch(() => "");
    samples.push({
      minutes: (performance.now() - t0) / 60_000,
      rss: procStatus(child.pid, "VmRSS"),
      heap: metric(text, "nodejs_heap_size_used_bytes"),
      queue: metric(text, "workqueue_depth", '{name="kustomization"}'),
      sockets: openSockets(child.pid),
    });
  };
  await sample();
  const sampler = setInterval(() => void sample(), 15_000);
  const converged = [];
  for (let minute = 1; minute <= MINUTES; minute++) {
    const changed = (minute * 7) % N; // one app changes per commit; every Kustomization sees the revision
    const sha = await repo.commit(appFiles(changed, { soak: String(minute) }), `soak ${minute}`);
    await client.patch(`${GR}/apps`, "merge", {
      metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": `soak-${minute}` } },
    });
    await new Promise((r) => setTimeout(r, Math.max(0, t0 + minute * 60_000 - performance.now())));
    const items = (await client.get(KS)).items;
    converged.push(items.filter((k) => k.status?.lastAppliedRevision === `main@sha1:${sha}`).length);
  }
  clearInterval(sampler);
  await sample();
  const steady = samples.filter((s) => s.minutes >= WARMUP);
  const rssSlope = slope(steady.map((s) => ({ x: s.minutes / 60, y: s.rss / MiB })));
  const socketSlope = slope(steady.map((s) => ({ x: s.minutes / 60, y: s.sockets })));
  const heapSlope = slope(steady.filter((s) => s.heap >= 0).map((s) => ({ x: s.minutes / 60, y: s.heap / MiB })));
  const rss = steady.map((s) => s.rss / MiB);
  const sockets = steady.map((s) => s.sockets);
  console.log(`# soak — ${new Date().toISOString()}`);
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}`,
  );
  console.log(`command: node bench/soak.bench.mjs --count ${N} --minutes ${MINUTES} --warmup-minutes ${WARMUP}`);
  console.log(`controller CPU over the soak: ${(cpuSeconds(child.pid) - cpu0).toFixed(0)} s`);
  console.log(`Kustomizations at each minute's revision one minute later: ${converged.join(" ")} (of ${N})`);
  console.log(
    `RSS after warm-up: min ${Math.min(...rss).toFixed(0)} MiB, max ${Math.max(...rss).toFixed(0)} MiB, slope ${rssSlope.toFixed(1)} MiB/h`,
  );
  console.log(`JavaScript heap in use after warm-up: slope ${heapSlope.toFixed(1)} MiB/h`);
  console.log("| minute | RSS MiB | heap used MiB | Kustomization queue depth | open sockets |");
  console.log("| ---: | ---: | ---: | ---: | ---: |");
  for (const s of samples.filter((_, i) => i % 20 === 0 || i === samples.length - 1))
    console.log(
      `| ${s.minutes.toFixed(0)} | ${(s.rss / MiB).toFixed(0)} | ${(s.heap / MiB).toFixed(0)} | ${s.queue} | ${s.sockets} |`,
    );
  console.log(
    `open sockets after warm-up: min ${Math.min(...sockets)}, max ${Math.max(...sockets)}, slope ${socketSlope.toFixed(1)}/h`,
  );
  console.log(
    `soak: count=${N} minutes=${MINUTES} rss_slope=${rssSlope.toFixed(1)}MiB/h heap_slope=${heapSlope.toFixed(1)}MiB/h sockets_slope=${socketSlope.toFixed(1)}/h`,
  );
} finally {
  child?.kill("SIGKILL");
  await git.close();
  await downFleet(dir).catch(() => {});
  rmSync(dir, { recursive: true, force: true });
  rmSync(storage, { recursive: true, force: true });
}
