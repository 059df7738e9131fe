#!/usr/bin/env node
// Benchmark: `flotilla plan` over APPS apps × 1..K clusters of a running local fleet (default /tmp/fleet-A).
// In a fresh namespace bench-plan-<id>: a loopback git repo of apps/app-<i> (two ConfigMaps), a GitRepository
// apps-<C> per cluster C and Kustomizations app-<i>-<C> (tenants through spec.kubeConfig, an admin.conf Secret),
// applied by the real controller (sharded to the namespace), then suspended. A checkout with one value changed
// per app is planned for the first k clusters, timed from spawn to exit. The planes are shared with other
// tests, so besides apiserver_request_total (all clients) the plan's own requests are counted by API Priority
// and Fairness: its identity (user bench-plan-<id>, group kubeadm:cluster-admins, a certificate from each
// plane's CA) has a FlowSchema of its own (apiserver_flowcontrol_dispatched_requests_total). All is removed.
// usage: node bench/plan.bench.mjs [--fleet /tmp/fleet-A] [--apps 50] [--runs 3]
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { isReady, until } from "./support/controller-bench.mjs";

const argOf = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const FLEET = argOf("fleet", "/tmp/fleet-A");
const APPS = Number(argOf("apps", "50"));
const RUNS = Number(argOf("runs", "3"));
const NS = `bench-plan-${randomBytes(3).toString("hex")}`;
const SHARD = `flotilla.dev/shard=${NS}`;

const { readFleetState } = await import("../dist/local/index.js");
const { KubeClient, setDefaultRateLimit } = await import("../dist/kube/client.js");
const { endpointFromKubeconfigFile } = await import("../dist/kube/kubeconfig.js");
const { startGitHttpServer } = await import("../dist/demo/git-http-server.js");
const { freePort } = await import("../dist/local/ports.js");
const { renderKubeconfig } = await import("../dist/local/kubeconfig-file.js");
const { generateKeyPair, issueCertificate, keyPairFromPem } = await import("../dist/local/pki/certificate.js");
const { planeCaSubject } = await import("../dist/local/pki/plane-pki.js");
setDefaultRateLimit({ qps: 1000, burst: 2000 });

const state = readFleetState(FLEET);
if (state?.phase !== "running" || !(APPS >= 1) || !(RUNS >= 1))
  throw new Error(`no running fleet in ${FLEET}, or bad args`);
const planes = state.planes.map((p) => ({
  name: p.name,
  mgmt: p.role === "management",
  server: endpointFromKubeconfigFile(p.kubeconfig).server,
  admin: new KubeClient(endpointFromKubeconfigFile(p.superAdminKubeconfig)), // system:masters: APF-exempt
  pki: join(FLEET, "planes", p.name, "pki"),
}));
planes.sort((a, b) => b.mgmt - a.mgmt || a.name.localeCompare(b.name));
const [mgmt] = planes;
const KS = `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${NS}/kustomizations`;
const GR = `/apis/source.toolkit.fluxcd.io/v1/namespaces/${NS}/gitrepositories`;
const FS = "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas";
const work = mkdtempSync(join(tmpdir(), "bench-plan-"));
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const allReady = (what, path, n) =>
  until(`${what} Ready`, async () => (await mgmt.admin.get(path)).items.filter(isReady).length === n, 900_000, 1000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A kubeconfig for user NS (cluster-admin, as Kamaji's admin.conf) on the plane, signed by its CA. */
function identity(p) {
  const issuer = { subject: planeCaSubject(p.name), keys: keyPairFromPem(readFileSync(join(p.pki, "ca.key"), "utf8")) };
  const subject = { commonName: NS, organizations: ["kubeadm:cluster-admins"] };
  const cert = issueCertificate({ subject, validityDays: 1, clientAuth: true }, generateKeyPair(), issuer);
  const caPem = readFileSync(join(p.pki, "ca.crt"), "utf8");
  const { certificatePem: certPem, privateKeyPem: keyPem } = cert;
  return renderKubeconfig({ clusterName: p.name, server: p.server, caPem, userName: NS, certPem, keyPem });
}

/** The plan's requests (its flow schema), all clients' apiserver_request_total, and the apiserver's start. */
async function scrape(p) {
  const text = await p.admin.get("/metrics");
  const r = { plan: 0, all: 0, start: 0 };
  for (const line of text.split("\n")) {
    const value = Number(line.slice(line.lastIndexOf(" ") + 1));
    if (line.startsWith("apiserver_request_total{")) r.all += value;
    else if (
      line.startsWith("apiserver_flowcontrol_dispatched_requests_total{") &&
      line.includes(`flow_schema="${NS}"`)
    )
      r.plan += value;
    else if (line.startsWith("process_start_time_seconds ")) r.start = value;
  }
  return r;
}
async function window(fn) {
  const before = await Promise.all(planes.map(scrape));
  const out = await fn();
  const after = await Promise.all(planes.map(scrape));
  // An apiserver restarted by another test resets its counters: that window does not count.
  const restarted = planes.filter((p, i) => after[i].start !== before[i].start).map((p) => p.name);
  return {
    out,
    restarted,
    plan: after.map((a, i) => a.plan - before[i].plan),
    all: after.map((a, i) => a.all - before[i].all),
  };
}

function plan(args) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ["bin/flotilla.js", "plan", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => resolve({ code, out, err, seconds: (performance.now() - t0) / 1000 }));
  });
}

const appFiles = (value) =>
  Object.fromEntries(
    Array.from({ length: APPS }, (_, i) => [
      `apps/app-${i}/cm.yaml`,
      [
        { name: `app-${i}`, data: { index: String(i), value } },
        { name: `app-${i}-b`, data: { index: String(i) } },
      ]
        .map(({ name, data }) => JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data }))
        .join("\n---\n") + "\n",
    ]),
  );

let controller;
let git;
const made = [];
async function teardown() {
  if (controller && controller.exitCode === null) {
    const exited = new Promise((r) => controller.once("exit", r));
    controller.kill("SIGTERM");
    await Promise.race([exited, sleep(15_000)]);
    if (controller.exitCode === null) controller.kill("SIGKILL");
  }
  await git?.close().catch(() => {});
  // With the controller gone, nothing else removes the finalizers: drop them, then the namespaces go.
  for (const path of [KS, GR]) {
    const list = await mgmt.admin.get(path).catch(() => ({ items: [] }));
    for (const o of list.items)
      await mgmt.admin.patch(`${path}/${o.metadata.name}`, "merge", { metadata: { finalizers: null } }).catch(() => {});
  }
  for (const { p, path } of made.reverse()) await p.admin.delete(path).catch((e) => console.error(String(e)));
  rmSync(work, { recursive: true, force: true });
}
process.once("SIGINT", () => void teardown().then(() => process.exit(130)));

const rows = [];
let background;
try {
  // ---- setup ----
  for (const p of planes) {
    await p.admin.create("/api/v1/namespaces", { metadata: { name: NS } });
    made.push({ p, path: `/api/v1/namespaces/${NS}` });
    await p.admin.create(FS, {
      metadata: { name: NS },
      spec: {
        priorityLevelConfiguration: { name: "global-default" },
        matchingPrecedence: 9800, // just before global-default, where this identity would otherwise land
        distinguisherMethod: { type: "ByUser" },
        rules: [
          {
            subjects: [{ kind: "User", user: { name: NS } }],
            resourceRules: [
              { verbs: ["*"], apiGroups: ["*"], resources: ["*"], clusterScope: true, namespaces: ["*"] },
            ],
            nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
          },
        ],
      },
    });
    made.push({ p, path: `${FS}/${NS}` });
    const conf = identity(p);
    if (p.mgmt) writeFileSync(join(work, "management.kubeconfig"), conf);
    else
      await mgmt.admin.create(`/api/v1/namespaces/${NS}/secrets`, {
        metadata: { name: `${p.name}-admin-kubeconfig` },
        data: { "admin.conf": Buffer.from(conf).toString("base64") },
      });
    // The flow schema is in effect once a request as the identity is counted by it.
    const asBench = new KubeClient(endpointFromKubeconfigFile(await writeTmp(`${p.name}.kubeconfig`, conf)));
    await until(
      `${p.name}: the flow schema in effect`,
      async () => (await asBench.get("/version"), (await scrape(p)).plan > 0),
      30_000,
      250,
    );
  }
  git = await startGitHttpServer();
  const repo = await git.createRepo("apps");
  await repo.commit(appFiles("1"), "apps");
  // prettier-ignore
  controller = spawn(process.execPath, ["bin/flotilla.js", "controller", "--kubeconfig", state.planes.find((p) => p.role === "management").kubeconfig,
    "--runtime-namespace", NS, "--install-crds", "--watch-label-selector", SHARD, "--kamaji-discovery", "false", "--concurrent", "8",
    "--kube-api-qps", "100", "--kube-api-burst", "300", "--storage-path", join(work, "storage"),
    "--storage-addr", `127.0.0.1:${await freePort()}`, "--health-addr", `127.0.0.1:${await freePort()}`, "--log-level", "error"],
    { stdio: ["ignore", "ignore", "inherit"] });
  // On a fresh fleet the controller installs the CRDs as it starts (--install-crds): wait until they are served.
  await until(
    "the Flux CRDs served",
    async () => (await mgmt.admin.get(GR), await mgmt.admin.get(KS), true),
    60_000,
    500,
  );
  const labels = { "flotilla.dev/shard": NS };
  for (const p of planes)
    await mgmt.admin.create(GR, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: { name: `apps-${p.name}`, labels },
      spec: { url: repo.url, interval: "60m", ref: { branch: "main" } },
    });
  await allReady("the GitRepositories", GR, planes.length);
  for (const p of planes)
    await Promise.all(
      Array.from({ length: APPS }, (_, i) =>
        mgmt.admin.create(KS, {
          apiVersion: "kustomize.toolkit.fluxcd.io/v1",
          kind: "Kustomization",
          metadata: { name: `app-${i}-${p.name}`, labels },
          spec: {
            ...{ interval: "60m", prune: true, path: `./apps/app-${i}`, targetNamespace: NS },
            sourceRef: { kind: "GitRepository", name: `apps-${p.name}` },
            ...(p.mgmt ? {} : { kubeConfig: { secretRef: { name: `${p.name}-admin-kubeconfig`, key: "admin.conf" } } }),
          },
        }),
      ),
    );
  const total = APPS * planes.length;
  const tApply = performance.now();
  await allReady(`${total} Kustomizations`, KS, total);
  console.error(`bench:plan: ${total} Kustomizations Ready in ${((performance.now() - tApply) / 1000).toFixed(0)} s`);
  // Suspended, the controller sends nothing as the bench identity; the plan still plans suspended apps.
  for (const o of (await mgmt.admin.get(KS)).items)
    await mgmt.admin.patch(`${KS}/${o.metadata.name}`, "merge", { spec: { suspend: true } });
  await sleep(5000);
  const bg = await window(() => sleep(5000));
  background = bg.restarted.length ? `unknown (${bg.restarted} restarted)` : sum(bg.plan);
  const dir = join(work, "checkout");
  for (const [f, text] of Object.entries(appFiles("2"))) await writeTmp(join("checkout", f), text);

  // ---- the plans ----
  for (let k = 1; k <= planes.length; k++) {
    const sources = planes.slice(0, k).flatMap((p) => ["--source", `GitRepository/${NS}/apps-${p.name}=${dir}`]);
    const args = [...sources, "-n", NS, "--kubeconfig", join(work, "management.kubeconfig"), "-o", "json"];
    const runs = [];
    for (let r = 0; r < RUNS; r++) {
      const w = await window(() => plan(args));
      if (w.restarted.length) {
        r--;
        console.error(`bench:plan: ${w.restarted} restarted during the plan: run again`);
        continue;
      }
      const { code, out, err, seconds } = w.out;
      let apps = [];
      try {
        apps = JSON.parse(out).apps;
      } catch {
        // no JSON: reported with its stderr below
      }
      const one = (a) => !a.errors.length && !a.create.length && !a.prune.length && a.change[0]?.diff.length === 1;
      const bad = apps.filter((a) => !one(a) || a.change.length !== 1);
      const perCluster = new Set(apps.map((a) => a.cluster)).size;
      if (code !== 1 || apps.length !== APPS * k || bad.length || perCluster !== k)
        throw new Error(
          `plan (${k} clusters): exit ${code}, ${apps.length} apps on ${perCluster} clusters (want ${APPS * k} on ${k}), ${bad.length} not one change, e.g. ${JSON.stringify(bad[0])?.slice(0, 1500)}\n${err || out.slice(0, 2000)}`,
        );
      runs.push({ seconds, plan: w.plan, all: w.all });
    }
    runs.sort((a, b) => a.seconds - b.seconds);
    const med = runs[Math.floor(runs.length / 2)];
    const requests = sum(med.plan);
    rows.push({ k, ...med, min: runs[0].seconds, max: runs.at(-1).seconds, requests, all: sum(med.all) });
    console.error(
      `bench:plan: ${k} cluster(s): ${runs.map((r) => r.seconds.toFixed(2)).join(", ")} s; ${requests} requests`,
    );
  }
} finally {
  await teardown();
}

async function writeTmp(rel, text) {
  const path = join(work, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

// ---- the report ----
const names = planes.map((p) => p.name).join(" + ");
console.log(
  `# bench:plan — ${new Date().toISOString()}, ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}`,
);
console.log(
  `command: node bench/plan.bench.mjs --fleet ${FLEET} --apps ${APPS} --runs ${RUNS} (median of ${RUNS} runs a row)`,
);
console.log(
  `the plan identity's requests in 5 s with no plan running (controller up, apps suspended): ${background}\n`,
);
console.log(
  `| clusters | apps | app plans | seconds: median (min–max) | ms per app plan | plan's requests (${names}) | per app plan | apiserver_request_total, all clients |`,
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
for (const r of rows) {
  const n = APPS * r.k;
  const s = `${r.seconds.toFixed(2)} (${r.min.toFixed(2)}–${r.max.toFixed(2)})`;
  console.log(
    `| ${r.k} | ${APPS} | ${n} | ${s} | ${((1000 * r.seconds) / n).toFixed(1)} | ${r.requests} (${r.plan.join(" + ")}) | ${(r.requests / n).toFixed(2)} | ${r.all} |`,
  );
}
const last = rows.at(-1);
console.log(`\nplan: apps=${APPS} clusters=${last.k} seconds=${last.seconds.toFixed(2)} requests=${last.requests}`);
