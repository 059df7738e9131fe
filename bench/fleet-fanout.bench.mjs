#!/usr/bin/env node
// Benchmark: one app fanned out by a FleetKustomization to N real tenant planes of a local fleet
// (`flotilla local up`, grown with `flotilla local add-tenant`: each plane a real kube-apiserver,
// controller-manager, scheduler and kwok node), reconciled by the real `flotilla controller` process
// (Kamaji discovery makes the Clusters, the fan-out the children). For each N, with a fresh controller:
//   - time from creating the FleetKustomization, and then from a second commit (pushed, then the
//     GitRepository's reconcile requested as a webhook would), until every tenant plane holds the app at
//     that commit and the FleetKustomization is Ready with ready = N at that revision;
//   - the controller's RSS (VmHWM peak; VmRSS settled at the end of the idle window) and JS heap in use,
//     per managed cluster as (settled(N) − settled(0)) / N against a run with no tenant plane at all;
//   - apiserver requests in an idle window after convergence (every interval 1m, so one window is one
//     idle cycle), from each plane's own /metrics: apiserver_request_total (every client, the planes' own
//     controller-manager, scheduler and kwok included) and the controller's share, read from API Priority
//     and Fairness: the controller uses the planes' admin kubeconfigs (group kubeadm:cluster-admins, flow
//     schema global-default), while kcm, the scheduler and kwok have flow schemas of their own and this
//     benchmark talks as system:masters (exempt), so global-default counts flotilla's requests only.
// A background window (no controller) before each run checks that global-default is then silent.
//
// Before growing, the planes' measured memory (PSS per tenant plane) says whether the next planes fit in the
// machine's available memory; when they do not, the run stops there and reports what it measured
// (support/fanout-growth.mjs, which also fits the slope per cluster).
//
// usage: node bench/fleet-fanout.bench.mjs [--planes 1,2,4,8,16,32] [--idle 60] [--background 15] [--dir /tmp/bench-fanout]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { cpuSeconds, isReady, procStatus, startBenchController } from "./support/controller-bench.mjs";
import { fanoutGrowthLines, fitFor, memAvailable, planeMemory } from "./support/fanout-growth.mjs";

const argOf = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const PLANES = argOf("planes", "1,2,4,8,16,32").split(",").map(Number);
const IDLE_S = Number(argOf("idle", "60"));
const BACKGROUND_S = Number(argOf("background", "15"));
const DIR = argOf("dir", "/tmp/bench-fanout");
const MiB = 1024 * 1024;
const NS = "tenants"; // where Kamaji's TenantControlPlanes, and so the discovered Clusters, live
const INTERVAL = "1m"; // GitRepository, children and (by default) Cluster probes: one idle cycle a minute
const FLEET = "/apis/fleet.flotilla.dev/v1alpha1/namespaces/tenants";
const FKS = `${FLEET}/fleetkustomizations`;
const CLUSTERS = `${FLEET}/clusters`;
const KS = `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${NS}/kustomizations`;
const GR = `/apis/source.toolkit.fluxcd.io/v1/namespaces/${NS}/gitrepositories`;
const FK_LABEL = "fleet.flotilla.dev/fleet-kustomization";
const CONTROLLER_FLOW_SCHEMA = "global-default";

function fail(message) {
  console.error(`fleet-fanout: ${message}`);
  process.exit(1);
}
if (!PLANES.length || PLANES.some((n, i) => !Number.isInteger(n) || n < 1 || n > 32 || (i > 0 && n <= PLANES[i - 1])))
  fail(`--planes must be increasing whole numbers from 1 to 32, got "${PLANES.join(",")}"`);
if (!(IDLE_S >= 10) || !(BACKGROUND_S >= 5)) fail("--idle must be at least 10 and --background at least 5 seconds");
// No skipping: every tool the run needs is there, or the run fails here.
if (!existsSync("dist/cli/main.js")) fail("dist/ is missing: run `npx tsc -p tsconfig.build.json` first");
const gitExec = spawnSync("git", ["--exec-path"], { encoding: "utf8" });
if (gitExec.status !== 0) fail("git is missing: install it (apt-get install git)");
if (!existsSync(join(gitExec.stdout.trim(), "git-http-backend")))
  fail(`git-http-backend is missing from ${gitExec.stdout.trim()}: the app repository cannot be served`);
if (existsSync(join(DIR, "state.json")))
  fail(`${DIR} already holds a fleet: stop it (flotilla local down --dir ${DIR}) or pass another --dir`);

const { readFleetState } = await import("../dist/local/index.js");
const { registerTenants } = await import("../dist/local/bootstrap.js");
const { freePort } = await import("../dist/local/ports.js");
const { startGitHttpServer } = await import("../dist/demo/git-http-server.js");
const { KubeClient, setDefaultRateLimit } = await import("../dist/kube/client.js");
const { endpointFromKubeconfigFile } = await import("../dist/kube/kubeconfig.js");
const { NotFoundError } = await import("../dist/kube/errors.js");

// The benchmark's own client must not be what limits the run.
setDefaultRateLimit({ qps: 1000, burst: 2000 });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const since = (t0) => (performance.now() - t0) / 1000;

/** `node bin/flotilla.js ARGS`; throws with its output when it fails. */
function cli(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/flotilla.js", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`flotilla ${args.join(" ")} exited ${code}:\n${out}`)),
    );
  });
}

/** Every plane of the fleet, with a system:masters client (exempt from APF: never counted as the controller). */
function planes() {
  return readFleetState(DIR).planes.map((p) => ({
    name: p.name,
    role: p.role,
    kubeconfig: p.kubeconfig,
    client: new KubeClient(endpointFromKubeconfigFile(p.superAdminKubeconfig)),
  }));
}

/** One plane's request counters: apiserver_request_total by "verb resource", and APF dispatches by flow schema. */
async function scrape(client) {
  const text = await client.get("/metrics");
  const requests = new Map();
  const flows = new Map();
  for (const line of text.split("\n")) {
    const isRequest = line.startsWith("apiserver_request_total{");
    const isFlow = line.startsWith("apiserver_flowcontrol_dispatched_requests_total{");
    if (!isRequest && !isFlow) continue;
    const labels = Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const value = Number(line.slice(line.lastIndexOf(" ") + 1));
    if (isFlow) flows.set(labels.flow_schema, (flows.get(labels.flow_schema) ?? 0) + value);
    else {
      // A non-resource request (GET /version) carries its path as subresource; /metrics is not counted.
      const what = labels.resource
        ? `${labels.resource}${labels.subresource ? `/${labels.subresource}` : ""}`
        : labels.subresource || "(non-resource)";
      const key = `${labels.verb} ${what}${labels.dry_run ? " (dry-run)" : ""}`;
      requests.set(key, (requests.get(key) ?? 0) + value);
    }
  }
  return { requests, flows };
}
const scrapeAll = (ps) => Promise.all(ps.map((p) => scrape(p.client)));
const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);
const diffMap = (a, b) => new Map([...b].map(([k, v]) => [k, v - (a.get(k) ?? 0)]));

/** Requests per minute in a window between two scrapes, split management / tenant planes. */
function windowRates(ps, before, after, seconds) {
  const perMin = 60 / seconds;
  const out = { mgmtAll: 0, tenantAll: 0, mgmtCtl: 0, tenantCtl: 0, mgmtByKey: new Map(), tenantByKey: new Map() };
  ps.forEach((p, i) => {
    const all = diffMap(before[i].requests, after[i].requests);
    const ctl = (after[i].flows.get(CONTROLLER_FLOW_SCHEMA) ?? 0) - (before[i].flows.get(CONTROLLER_FLOW_SCHEMA) ?? 0);
    const mgmt = p.role === "management";
    out[mgmt ? "mgmtAll" : "tenantAll"] += sum(all) * perMin;
    out[mgmt ? "mgmtCtl" : "tenantCtl"] += ctl * perMin;
    const byKey = mgmt ? out.mgmtByKey : out.tenantByKey;
    for (const [k, v] of all) byKey.set(k, (byKey.get(k) ?? 0) + v * perMin);
  });
  return out;
}

/** The app: a namespace and three ConfigMaps saying which cluster they are on and which commit they come from. */
function appFiles(n, revision) {
  const namespace = `fanout-n${n}`;
  const doc = (o) => `${JSON.stringify(o)}\n`;
  const files = {
    "app/kustomization.yaml": doc({
      apiVersion: "kustomize.config.k8s.io/v1beta1",
      kind: "Kustomization",
      resources: ["namespace.yaml", "configmaps.yaml"],
    }),
    "app/namespace.yaml": doc({ apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } }),
    "app/configmaps.yaml": [0, 1, 2]
      .map((i) =>
        doc({
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name: `app-${i}`, namespace, labels: { "app.kubernetes.io/part-of": "fanout" } },
          data: { cluster: "${cluster_name}", revision, index: String(i) },
        }),
      )
      .join("---\n"),
  };
  return { namespace, files };
}

let controller;
let controllerExit;
/** Polls `fn` until it returns truthy; fails at once if the controller process died. */
async function waitFor(what, fn, timeoutMs, intervalMs = 500) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (controllerExit) throw new Error(`the controller exited (${controllerExit}) while waiting for ${what}`);
    const got = await fn().catch(() => undefined);
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(intervalMs);
  }
}

async function stopController() {
  if (!controller) return;
  const c = controller;
  controller = undefined;
  if (c.exitCode === null && c.signalCode === null) {
    const exited = new Promise((r) => c.once("exit", r));
    c.kill("SIGTERM");
    if ((await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)])) === false) {
      c.kill("SIGKILL");
      await exited;
    }
  }
}

/** FleetKustomization Ready at its generation, ready = N, every cluster at `revision`; every tenant plane has the app. */
async function converged(mgmt, tenants, name, n, revision, data) {
  const fk = await mgmt.get(`${FKS}/${name}`);
  if (!isReady(fk) || fk.status?.counts?.ready !== n || fk.status?.counts?.total !== n) return false;
  if (fk.status.clusters?.length !== n || fk.status.clusters.some((c) => c.revision !== revision)) return false;
  const seen = await Promise.all(
    tenants.map(async (t) => {
      const cms = await t.client.get(`/api/v1/namespaces/${name}/configmaps`, {
        labelSelector: "app.kubernetes.io/part-of=fanout",
      });
      return cms.items.length === 3 && cms.items.every((c) => c.data.cluster === t.name && c.data.revision === data);
    }),
  );
  return seen.every(Boolean);
}

async function runOnce(n, git) {
  const ps = planes();
  const mgmtPlane = ps.find((p) => p.role === "management");
  const mgmt = mgmtPlane.client;
  const tenants = ps.filter((p) => p.role === "tenant");
  if (tenants.length !== n) throw new Error(`expected ${n} tenant planes, the fleet has ${tenants.length}`);
  const r = { n };

  // Background: the fleet with no controller running.
  await sleep(5000);
  const bg0 = await scrapeAll(ps);
  await sleep(BACKGROUND_S * 1000);
  r.background = windowRates(ps, bg0, await scrapeAll(ps), BACKGROUND_S);

  const storage = mkdtempSync(join(tmpdir(), "flotilla-bench-fanout-storage-"));
  const healthPort = await freePort();
  const name = `fanout-n${n}`;
  try {
    const tStart = performance.now();
    const startedAt = new Date();
    controllerExit = undefined;
    controller = startBenchController({
      kubeconfig: mgmtPlane.kubeconfig,
      storage,
      storagePort: await freePort(),
      healthPort,
      concurrent: 4,
      qps: 50,
      burst: 300,
    });
    const pid = controller.pid;
    controller.once("exit", (code, signal) => (controllerExit = signal ?? `code ${code}`));
    let peakRss = 0;
    const sampler = setInterval(() => {
      if (!controllerExit) peakRss = Math.max(peakRss, procStatus(pid, "VmRSS"));
    }, 250);
    try {
      await waitFor("the fleet CRDs", () => mgmt.get(FKS).then(() => true), 120_000, 250);
      // Discovery makes a Cluster of every TenantControlPlane; this controller must have probed each.
      await waitFor(
        `${n} discovered Clusters Ready`,
        async () => {
          const list = await mgmt.get(CLUSTERS, { labelSelector: "fleet.flotilla.dev/discovered-from=kamaji" });
          return (
            list.items.length === n &&
            list.items.every((c) => isReady(c) && new Date(c.status?.lastProbeTime ?? 0) >= startedAt)
          );
        },
        180_000,
      );
      r.clustersReadyS = since(tStart);

      const repo = await git.createRepo(name);
      const app = appFiles(n, "1");
      const sha1 = await repo.commit(app.files, "the app");
      await mgmt.create(GR, {
        apiVersion: "source.toolkit.fluxcd.io/v1",
        kind: "GitRepository",
        metadata: { name, namespace: NS },
        spec: { url: repo.url, interval: INTERVAL, ref: { branch: "main" } },
      });
      await waitFor("the GitRepository Ready", async () => isReady(await mgmt.get(`${GR}/${name}`)), 60_000, 250);

      const t0 = performance.now();
      await mgmt.create(FKS, {
        apiVersion: "fleet.flotilla.dev/v1alpha1",
        kind: "FleetKustomization",
        metadata: { name, namespace: NS },
        spec: {
          clusterSelector: { matchLabels: { "fleet.flotilla.dev/discovered-from": "kamaji" } },
          template: {
            spec: {
              sourceRef: { kind: "GitRepository", name },
              path: "./app",
              interval: INTERVAL,
              prune: true,
            },
          },
        },
      });
      if (n === 0) {
        await waitFor(
          "the FleetKustomization reconciled",
          async () => {
            const fk = await mgmt.get(`${FKS}/${name}`);
            return fk.status?.observedGeneration === fk.metadata.generation;
          },
          60_000,
        );
      } else {
        await waitFor(
          `the app on ${n} planes`,
          () => converged(mgmt, tenants, name, n, `main@sha1:${sha1}`, "1"),
          600_000,
          100,
        );
        r.createReadyS = since(t0);

        const t1 = performance.now();
        const sha2 = await repo.commit(appFiles(n, "2").files, "a change");
        await mgmt.patch(`${GR}/${name}`, "merge", {
          metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": `commit-${Date.now()}` } },
        });
        await waitFor(
          `the second commit on ${n} planes`,
          () => converged(mgmt, tenants, name, n, `main@sha1:${sha2}`, "2"),
          600_000,
          100,
        );
        r.commitReadyS = since(t1);
      }

      // Idle: nothing new anywhere; this benchmark sends nothing but the two scrapes.
      await sleep(5000);
      const cpu0 = cpuSeconds(pid);
      const idle0 = await scrapeAll(ps);
      await sleep(IDLE_S * 1000);
      const idle1 = await scrapeAll(ps);
      r.idle = windowRates(ps, idle0, idle1, IDLE_S);
      r.idleCpuS = cpuSeconds(pid) - cpu0;
      r.settledRss = procStatus(pid, "VmRSS");
      r.peakRss = Math.max(peakRss, procStatus(pid, "VmHWM"));
      const metrics = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
      r.heap = Number(metrics.match(/^nodejs_heap_size_used_bytes (\S+)$/m)?.[1] ?? NaN);
      r.cpuS = cpuSeconds(pid);
      if (controllerExit) throw new Error(`the controller exited (${controllerExit}) during the idle window`);

      // Clean up while the controller runs: the children's finalizers prune the app from every plane.
      await mgmt.delete(`${FKS}/${name}`);
      await waitFor(
        "the FleetKustomization and its children gone",
        async () => {
          const children = await mgmt.get(KS, { labelSelector: `${FK_LABEL}=${name}` });
          if (children.items.length) return false;
          return mgmt.get(`${FKS}/${name}`).then(
            () => false,
            (err) => err instanceof NotFoundError,
          );
        },
        180_000,
      );
      await mgmt.delete(`${GR}/${name}`);
      await waitFor(
        "the GitRepository gone",
        () =>
          mgmt.get(`${GR}/${name}`).then(
            () => false,
            (err) => err instanceof NotFoundError,
          ),
        60_000,
      );
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await stopController();
    rmSync(storage, { recursive: true, force: true });
  }
  return r;
}

// ---- the run ----
const results = [];
const growth = [];
let git;
let fleetUp = false;
const teardown = async () => {
  await stopController().catch(() => {});
  await git?.close().catch(() => {});
  if (fleetUp) {
    fleetUp = false;
    await cli(["local", "down", "--dir", DIR]).catch((err) => console.error(String(err)));
  }
};
process.once("SIGINT", () => void teardown().then(() => process.exit(130)));
process.once("SIGTERM", () => void teardown().then(() => process.exit(143)));

const tRun = performance.now();
try {
  fleetUp = true;
  await cli(["local", "up", "--tenants", "0", "--dir", DIR]);
  const mgmt = planes()[0].client;
  // Kamaji's CRD and namespace before any plane exists, so the 0-plane baseline runs the same controllers.
  await registerTenants(mgmt, [], 120_000);
  await mgmt.create("/api/v1/namespaces", { metadata: { name: "flux-system" } });
  git = await startGitHttpServer();

  const base = await runOnce(0, git);
  results.push(base);
  console.error(`fleet-fanout: baseline (0 tenant planes) done at ${since(tRun).toFixed(0)} s`);
  let have = 0;
  for (const n of PLANES) {
    if (have > 0) {
      const fit = fitFor(n - have, planeMemory(readFleetState(DIR)));
      console.error(`fleet-fanout: growing to ${n}: ${fit.line}`);
      if (!fit.fits) {
        console.error(`fleet-fanout: stopping at ${have} tenant planes: ${n} do not fit in this machine's memory`);
        process.exitCode = 1;
        break;
      }
    }
    const t = performance.now();
    for (let i = have + 1; i <= n; i++) await cli(["local", "add-tenant", `tenant${i}`, "--dir", DIR]);
    growth.push({ n, added: n - have, seconds: since(t) });
    have = n;
    const r = await runOnce(n, git);
    r.mem = planeMemory(readFleetState(DIR));
    r.available = memAvailable();
    results.push(r);
    console.error(`fleet-fanout: ${n} tenant planes done at ${since(tRun).toFixed(0)} s (${new Date().toISOString()})`);
  }
} finally {
  await teardown();
}

// ---- the report ----
const fmtS = (s) =>
  s === undefined ? "—" : s >= 60 ? `${Math.floor(s / 60)}m${(s % 60).toFixed(0)}s` : `${s.toFixed(1)} s`;
const mib = (b) => (b / MiB).toFixed(1);
const base = results[0];
const one = results.find((r) => r.n === 1);
const runs = results.slice(1);
const perCluster = (r) => (r.idle.mgmtCtl + r.idle.tenantCtl) / r.n;
// The controller's own fixed traffic (leader election, the GitRepository) does not grow with N: per cluster above it.
const aboveBase = (r) => (r.idle.mgmtCtl + r.idle.tenantCtl - base.idle.mgmtCtl - base.idle.tenantCtl) / r.n;

console.log(`# fleet-fanout — ${new Date().toISOString()}, whole run ${fmtS(since(tRun))}`);
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}`,
);
console.log(
  `command: node bench/fleet-fanout.bench.mjs --planes ${PLANES.join(",")} --idle ${IDLE_S} --background ${BACKGROUND_S}`,
);
console.log(
  `fleet grown with local add-tenant: ${growth.map((g) => `+${g.added} → ${g.n} in ${fmtS(g.seconds)}`).join(", ")}`,
);
console.log("\nTime (fresh controller per N):\n");
console.log(
  "| tenant planes | controller start → N Clusters Ready | FleetKustomization creation → all Ready | commit → all Ready | commit time ÷ N=1 |",
);
console.log("| --- | --- | --- | --- | --- |");
for (const r of runs)
  console.log(
    `| ${r.n} | ${fmtS(r.clustersReadyS)} | ${fmtS(r.createReadyS)} | ${fmtS(r.commitReadyS)} | ${one ? `${(r.commitReadyS / one.commitReadyS).toFixed(2)}×` : "—"} |`,
  );
console.log("\nController memory:\n");
console.log(
  "| tenant planes | peak RSS (VmHWM) | settled RSS | JS heap used | RSS per cluster (vs 0 planes) | heap per cluster (vs 0 planes) | controller CPU (run / idle window) |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const r of results)
  console.log(
    `| ${r.n} | ${mib(r.peakRss)} MiB | ${mib(r.settledRss)} MiB | ${mib(r.heap)} MiB | ${r.n ? `${mib((r.settledRss - base.settledRss) / r.n)} MiB` : "(baseline)"} | ${r.n ? `${mib((r.heap - base.heap) / r.n)} MiB` : "(baseline)"} | ${r.cpuS.toFixed(1)} s / ${r.idleCpuS.toFixed(1)} s |`,
  );
console.log(`\nIdle apiserver requests per minute (${IDLE_S} s window after convergence):\n`);
console.log(
  "| tenant planes | controller → management | controller → tenant planes | controller per cluster (all ÷ N: mgmt + tenant) | per cluster above the 0-plane controller | that ÷ N=1 | all clients, management | all clients, per tenant plane | background (no controller): global-default / all clients per tenant plane |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const r of results) {
  console.log(
    `| ${r.n} | ${r.idle.mgmtCtl.toFixed(0)} | ${r.idle.tenantCtl.toFixed(0)} | ${r.n ? `${perCluster(r).toFixed(1)} (${(r.idle.mgmtCtl / r.n).toFixed(1)} + ${(r.idle.tenantCtl / r.n).toFixed(1)})` : "—"} | ${r.n ? aboveBase(r).toFixed(1) : "—"} | ${r.n && one ? `${(aboveBase(r) / aboveBase(one)).toFixed(2)}×` : "—"} | ${r.idle.mgmtAll.toFixed(0)} | ${r.n ? (r.idle.tenantAll / r.n).toFixed(0) : "—"} | ${(r.background.mgmtCtl + r.background.tenantCtl).toFixed(0)} / ${r.n ? (r.background.tenantAll / r.n).toFixed(0) : "—"} |`,
  );
}
const breakdown = (idle, bg, n) =>
  [...idle.entries()]
    .map(([k, v]) => [k, (v - (bg.get(k) ?? 0)) / n])
    .filter(([, v]) => Math.abs(v) >= 0.5)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k}: ${v.toFixed(1)}`)
    .join(", ");
console.log("\nIdle minus background, per cluster per minute (apiserver_request_total by verb and resource):");
for (const r of runs) {
  console.log(`- ${r.n}: management: ${breakdown(r.idle.mgmtByKey, r.background.mgmtByKey, r.n) || "—"}`);
  console.log(`  tenant planes: ${breakdown(r.idle.tenantByKey, r.background.tenantByKey, r.n) || "—"}`);
}
for (const line of fanoutGrowthLines(runs)) console.log(line);
const last = runs.at(-1);
if (last?.mem && last.n < 32) {
  const fit = fitFor(32 - last.n, last.mem, last.available);
  console.log(`\n32 tenant planes, extrapolated from ${last.n}: ${fit.line}: ${fit.fits ? "fits" : "does NOT fit"}`);
}
console.log("");
for (const r of runs)
  console.log(
    `fleet-fanout: planes=${r.n} ready_s=${r.commitReadyS.toFixed(1)} rss_mib=${mib(r.settledRss)} rss_per_cluster_mib=${mib((r.settledRss - base.settledRss) / r.n)} idle_requests_per_cluster_min=${perCluster(r).toFixed(1)} idle_requests_per_cluster_min_above_baseline=${aboveBase(r).toFixed(1)}`,
  );
