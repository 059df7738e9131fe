#!/usr/bin/env node
// Benchmark: the dashboard's fleet page with CLUSTERS Clusters × APPS Kustomizations (statuses written, ~5 % failing,
// no controller) in a fresh namespace of a running local fleet: each run loads `flotilla dashboard -n <ns>` in a fresh
// browser context (no cache) and takes performance.now() once every cluster section and app row is in the DOM.
// usage: node bench/dashboard.bench.mjs [--fleet /tmp/fleet-A] [--apps 200] [--clusters 3] [--runs 5]
/* global document */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { chromium } from "playwright-core";
import { until } from "./support/controller-bench.mjs";

const argOf = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const FLEET = argOf("fleet", "/tmp/fleet-A");
const APPS = Number(argOf("apps", "200"));
const CLUSTERS = Number(argOf("clusters", "3"));
const RUNS = Number(argOf("runs", "5"));
const NS = `bench-dash-${randomBytes(3).toString("hex")}`;
const KUBECONFIG = join(FLEET, "kubeconfigs", "management.kubeconfig");
const ROWS = APPS * CLUSTERS;
if (!(APPS >= 1 && CLUSTERS >= 1 && RUNS >= 1)) throw new Error("--apps, --clusters and --runs must be ≥ 1");

const { KubeClient, setDefaultRateLimit } = await import("../dist/kube/client.js");
const { endpointFromKubeconfigFile } = await import("../dist/kube/kubeconfig.js");
const { servedCrds } = await import("../dist/api/flux-crds.js");
setDefaultRateLimit({ qps: 1000, burst: 2000 });
const kube = new KubeClient(endpointFromKubeconfigFile(KUBECONFIG));
const version = (await kube.get("/version")).gitVersion;

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const CL = `/apis/fleet.flotilla.dev/v1alpha1/namespaces/${NS}/clusters`;
const KS = `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${NS}/kustomizations`;
const now = () => new Date().toISOString().replace(/\.\d+Z$/, "Z");
const ready = (ok, reason, message, observedGeneration) => [
  { type: "Ready", status: ok ? "True" : "False", reason, message, observedGeneration, lastTransitionTime: now() },
];
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { med: s[Math.floor(s.length / 2)], min: s[0], max: s.at(-1) };
};
const fmt = (d, xs) => ((s) => `${s.med.toFixed(d)} (${s.min.toFixed(d)}–${s.max.toFixed(d)})`)(stats(xs));

let nsMade = false;
let dash;
let dashErr = "";
let browser;
async function teardown() {
  await browser?.close().catch(() => {});
  if (dash && dash.exitCode === null && dash.signalCode === null) {
    const exited = new Promise((r) => dash.once("exit", r));
    dash.kill("SIGTERM");
    const timeout = new Promise((r) => setTimeout(r, 10_000, false));
    if (!(await Promise.race([exited.then(() => true), timeout]))) dash.kill("SIGKILL");
  }
  if (!nsMade) return;
  nsMade = false;
  const gone = async () => !(await kube.get(`/api/v1/namespaces/${NS}`).catch(() => undefined));
  await kube.delete(`/api/v1/namespaces/${NS}`).catch((e) => console.error(String(e)));
  await until(`namespace ${NS} gone`, gone, 120_000, 500).catch((e) => console.error(String(e)));
}
process.once("SIGINT", () => void teardown().then(() => process.exit(130)));

/** `flotilla dashboard` as a user runs it; resolves with the URL it prints. */
function startDashboard() {
  const bin = new URL("../bin/flotilla.js", import.meta.url).pathname;
  dash = spawn(process.execPath, [bin, "dashboard", "--kubeconfig", KUBECONFIG, "-n", NS, "--port", "0"]);
  dash.stderr.on("data", (d) => (dashErr += d));
  let out = "";
  return new Promise((resolve, reject) => {
    dash.stdout.on("data", (d) => {
      const url = /^(http:\/\/\S+\/)$/m.exec((out += d))?.[1];
      if (url) resolve(url);
    });
    dash.once("exit", (code, signal) => reject(new Error(`dashboard exited (${signal ?? code}): ${dashErr}`)));
  });
}

/** One page load in a fresh context: ms from navigation start; /api/fleet's resource timing. */
async function measure(url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "commit" });
    const done = await page.waitForFunction(
      ({ ns, clusters, rows }) => {
        const count = (q) => document.querySelectorAll(q).length;
        if (count(`section.cluster[data-cluster^="${ns}/"]`) !== clusters) return false;
        if (count(`section.cluster tr[data-app^="Kustomization/${ns}/"]`) !== rows) return false;
        const load = performance.now();
        const api = performance.getEntriesByType("resource").find((e) => new URL(e.name).pathname === "/api/fleet");
        const { startTime: start, requestStart, responseStart, responseEnd: end } = api;
        const failing = count('tr[data-app^="Kustomization/"][data-state="failing"]');
        return { load, failing, start, server: responseStart - requestStart, end, render: load - end };
      },
      { ns: NS, clusters: CLUSTERS, rows: ROWS },
      { polling: "raf", timeout: 60_000 },
    );
    return await done.jsonValue();
  } finally {
    await context.close();
  }
}

const failingApp = (i) => i % 20 === 7; // 5 %
const runs = [];
const nodeFetch = [];
let [warm, apiSize, dashStart, crdNote, chromiumVersion] = [undefined, 0, 0, "served already", ""];
const tSetup = performance.now();
try {
  // ---- the CRDs, the namespace, the objects ----
  // Not served yet (a fresh fleet, no controller ever started): servedCrds() as the controller applies them.
  const served = async () => (await kube.get(CL), await kube.get(KS), true);
  if (!(await served().catch(() => false))) {
    for (const crd of servedCrds()) await kube.apply(`${CRDS}/${crd.metadata.name}`, crd, "flotilla", { force: true });
    crdNote = "not served: servedCrds() applied (server-side)";
  }
  await until("the Cluster and Kustomization kinds served", served, 60_000, 250);
  await kube.create("/api/v1/namespaces", { metadata: { name: NS } });
  nsMade = true;
  const [head, previous] = [0, 1].map(() => `main@sha1:${randomBytes(20).toString("hex")}`);
  const dummy = "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 'https://127.0.0.1:9'}}]\n";
  const names = Array.from({ length: CLUSTERS }, (_, k) => `cluster-${k + 1}`);
  for (const c of names) {
    const secretRef = { name: `${c}-kubeconfig`, key: "admin.conf" };
    const data = { "admin.conf": Buffer.from(dummy).toString("base64") };
    await kube.create(`/api/v1/namespaces/${NS}/secrets`, { metadata: { name: secretRef.name }, data });
    const o = await kube.create(CL, {
      ...{ apiVersion: "fleet.flotilla.dev/v1alpha1", kind: "Cluster", metadata: { name: c } },
      spec: { kubeConfig: { secretRef } },
    });
    const g = o.metadata.generation;
    const conditions = ready(true, "Probed", `Kubernetes ${version}, 3 nodes`, g);
    const status = { observedGeneration: g, conditions, kubernetesVersion: version, lastProbeTime: now() };
    await kube.patch(`${CL}/${c}/status`, "merge", { status });
  }
  const queue = names.flatMap((c) => Array.from({ length: APPS }, (_, i) => ({ c, i })));
  const app = async ({ c, i }) => {
    const [name, ns, bad] = [`app-${i}-${c}`, `app-${i}`, failingApp(i)];
    const o = await kube.create(KS, {
      ...{ apiVersion: "kustomize.toolkit.fluxcd.io/v1", kind: "Kustomization", metadata: { name } },
      spec: {
        ...{ interval: "10m", path: `./apps/${i}`, prune: true, sourceRef: { kind: "GitRepository", name: "apps" } },
        kubeConfig: { secretRef: { name: `${c}-kubeconfig`, key: "admin.conf" } },
      },
    });
    const g = o.metadata.generation;
    const ids = [`_${ns}__Namespace`, `${ns}_${name}__ConfigMap`, `${ns}_${name}__Service`];
    const entries = [...ids.map((id) => ({ id, v: "v1" })), { id: `${ns}_${name}_apps_Deployment`, v: "v1" }];
    const why = `Deployment/${ns}/${name} dry-run failed (Invalid): spec.template.spec.containers[0].image: Required`;
    const conditions = bad
      ? ready(false, "ReconciliationFailed", why, g)
      : ready(true, "ReconciliationSucceeded", `Applied revision: ${head}`, g);
    const revisions = { lastAppliedRevision: bad ? previous : head, lastAttemptedRevision: head };
    const status = { observedGeneration: g, conditions, ...revisions, inventory: { entries } };
    await kube.patch(`${KS}/${name}/status`, "merge", { status });
  };
  const failing = queue.filter(({ i }) => failingApp(i)).length;
  const worker = async () => {
    while (queue.length) await app(queue.shift());
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  const setupS = ((performance.now() - tSetup) / 1000).toFixed(1);
  console.error(`bench:dashboard: ${CLUSTERS} Clusters, ${ROWS} Kustomizations (${failing} failing) in ${setupS} s`);

  // ---- the dashboard, checked from Node ----
  const t0 = performance.now();
  const url = await startDashboard();
  dashStart = performance.now() - t0;
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    const text = await (await fetch(`${url}api/fleet`)).text();
    nodeFetch.push(performance.now() - t);
    apiSize = Buffer.byteLength(text);
    const { clusters } = JSON.parse(text);
    const rows = clusters.reduce((n, c) => n + (c.cluster.startsWith(`${NS}/`) ? c.apps.length : 0), 0);
    if (clusters.length !== CLUSTERS || rows !== ROWS)
      throw new Error(`/api/fleet: ${clusters.length} clusters, ${rows} apps; want ${CLUSTERS}, ${ROWS}`);
  }

  // ---- the page in Chromium ----
  const executablePath = process.env.FLOTILLA_CHROMIUM || "/usr/bin/chromium";
  browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  chromiumVersion = browser.version();
  warm = await measure(url);
  for (let r = 1; r <= RUNS; r++) {
    const m = await measure(url);
    if (m.failing !== failing) throw new Error(`run ${r}: ${m.failing} failing rows, want ${failing}`);
    runs.push(m);
    console.error(`bench:dashboard: run ${r}: ${m.load.toFixed(0)} ms (/api/fleet until ${m.end.toFixed(0)} ms)`);
  }
} finally {
  await teardown();
}

// ---- the report ----
const of = (k) => runs.map((r) => r[k]);
const machine = `${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${process.version}`;
console.log(`# bench:dashboard — ${new Date().toISOString()}, ${machine}, Chromium ${chromiumVersion}`);
console.log(
  `command: node bench/dashboard.bench.mjs --fleet ${FLEET} --apps ${APPS} --clusters ${CLUSTERS} --runs ${RUNS}`,
);
console.log(`flotilla CRDs: ${crdNote}; dashboard start (spawn → URL printed): ${dashStart.toFixed(0)} ms`);
console.log(`/api/fleet: ${(apiSize / 1024).toFixed(1)} KiB, GET from Node ${fmt(1, nodeFetch)} ms`);
console.log(`warm-up page load (not counted): ${warm.load.toFixed(0)} ms; then ${RUNS} runs, median (min–max):\n`);
console.log("| ms from navigation start | value |\n| --- | --- |");
for (const [k, what, d = 0] of [
  ["load", `all ${CLUSTERS} cluster sections and ${ROWS} app rows in the DOM`],
  ["start", "/api/fleet request start"],
  ["server", "/api/fleet server time (requestStart → responseStart)", 1],
  ["end", "/api/fleet response end"],
  ["render", "render (response end → rows in the DOM)"],
])
  console.log(`| ${what} | ${fmt(d, of(k))} |`);
const med = stats(of("load")).med / 1000;
console.log(`\ndashboard: clusters=${CLUSTERS} apps=${ROWS} load=${med.toFixed(3)}s`);
