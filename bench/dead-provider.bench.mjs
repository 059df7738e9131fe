#!/usr/bin/env node
// Benchmark: does a dead notification provider slow reconciles? One real `flotilla controller` process on
// a running local fleet (sharded by label to this run's namespaces), and in the same run three batches of
// N Kustomizations (Flux's benchmark app each, from one GitRepository): first with no Alert, then in a
// namespace whose Alert sends every Kustomization event to a Provider that is dead — `stall` (accepts the
// connection and never answers, so each delivery is held until the Provider's timeout) or `refuse`
// (nothing listens: connection refused, retried with Flux's back-off) — then with no Alert again, to
// bracket drift from the machine's load. Each batch: from creating the N objects to all N Ready.
// Reports the load average (1/5/15 min) before and after, and the deliveries the dead provider held.
//
// usage: node bench/dead-provider.bench.mjs [--fleet /tmp/flotilla-shared-fleet] [--n 100] [--dead stall|refuse]
//        [--concurrent 4]   (needs `npx tsc -p tsconfig.build.json` first: it runs dist/)
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { appFiles, isReady, until } from "./support/controller-bench.mjs";

const argOf = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const FLEET = argOf("fleet", "/tmp/flotilla-shared-fleet");
const N = Number(argOf("n", "100"));
const DEAD = argOf("dead", "stall");
const CONCURRENT = argOf("concurrent", "4");
if (!["stall", "refuse"].includes(DEAD)) throw new Error(`--dead ${DEAD}: use stall or refuse`);

const { KubeClient, setDefaultRateLimit } = await import("../dist/kube/client.js");
const { endpointFromKubeconfigFile } = await import("../dist/kube/kubeconfig.js");
const { startGitHttpServer } = await import("../dist/demo/git-http-server.js");
setDefaultRateLimit({ qps: 1000, burst: 2000 });

const KUBECONFIG = join(FLEET, "kubeconfigs", "management.kubeconfig");
const client = new KubeClient(endpointFromKubeconfigFile(KUBECONFIG));
const run = randomBytes(3).toString("hex");
const shard = `dead-provider-${run}`;
const labels = { "flotilla.dev/shard": shard, "flotilla.dev/test": "true" };
const NC = "/apis/notification.toolkit.fluxcd.io/v1beta3";
const KS = (ns) => `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations`;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

/** A peer that takes connections and never answers (the `stall` provider); counts what it holds. */
async function stallingServer() {
  const sockets = new Set();
  const server = createServer((s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => {});
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    held: () => sockets.size,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(r));
    },
  };
}

async function namespace(prefix) {
  const name = `${prefix}-${run}`;
  await client.create("/api/v1/namespaces", { metadata: { name, labels } });
  return name;
}

async function batch(ns, target, gitUrl) {
  await client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`, {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name: "apps", namespace: ns, labels },
    spec: { url: gitUrl, interval: "60m", ref: { branch: "main" } },
  });
  await until(
    `the GitRepository in ${ns} Ready`,
    async () => isReady(await client.get(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories/apps`)),
    300_000,
    250,
  );
  const t0 = performance.now();
  for (let at = 0; at < N; at += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, N - at) }, (_, k) =>
        client.create(KS(ns), {
          apiVersion: "kustomize.toolkit.fluxcd.io/v1",
          kind: "Kustomization",
          metadata: { name: `app-${at + k}`, namespace: ns, labels },
          spec: {
            interval: "60m",
            retryInterval: "5m",
            prune: true,
            path: `./apps/app-${at + k}`,
            targetNamespace: target,
            sourceRef: { kind: "GitRepository", name: "apps" },
          },
        }),
      ),
    );
  await until(
    `${N} Kustomizations Ready in ${ns}`,
    async () => (await client.get(KS(ns))).items.filter(isReady).length === N,
    30 * 60_000,
    500,
  );
  return (performance.now() - t0) / 1000;
}

const storage = mkdtempSync(join(tmpdir(), "flotilla-bench-dead-provider-"));
const git = await startGitHttpServer();
const stall = DEAD === "stall" ? await stallingServer() : undefined;
let child;
const namespaces = [];
try {
  const repo = await git.createRepo("apps");
  let files = {};
  for (let i = 0; i < N; i++) files = { ...files, ...appFiles(i) };
  await repo.commit(files, `${N} apps`);
  const [quiet, dead, quiet2] = [await namespace("quiet"), await namespace("dead"), await namespace("quiet2")];
  // Each batch applies into its own namespace: three identical workloads, each creating its objects.
  const targets = [await namespace("apps-a"), await namespace("apps-b"), await namespace("apps-c")];
  namespaces.push(quiet, dead, quiet2, ...targets);
  child = spawn(
    process.execPath,
    [
      ...["bin/flotilla.js", "controller", "--kubeconfig", KUBECONFIG, "--runtime-namespace", quiet],
      ...["--storage-path", storage, "--storage-addr", "127.0.0.1:0", "--health-addr", "127.0.0.1:0"],
      ...["--receiver-addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0", "--events-addr", "127.0.0.1:0"],
      ...["--watch-label-selector", `flotilla.dev/shard=${shard}`, "--concurrent", CONCURRENT],
      ...["--log-level", process.env.FLOTILLA_BENCH_LOG_LEVEL ?? "error"],
      // A fresh fleet has no CRDs yet (the e2e suites install them): the controller puts them in place.
      "--install-crds",
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  const address = stall ? stall.url : "http://127.0.0.1:1/hook";
  await until(
    "the Provider CRD served",
    () => client.get(`${NC}/namespaces/${dead}/providers`).then(() => true),
    120_000,
  );
  await client.create(`${NC}/namespaces/${dead}/providers`, {
    apiVersion: "notification.toolkit.fluxcd.io/v1beta3",
    kind: "Provider",
    metadata: { name: "dead", namespace: dead, labels },
    spec: { type: "generic", address, timeout: "30s" },
  });
  await client.create(`${NC}/namespaces/${dead}/alerts`, {
    apiVersion: "notification.toolkit.fluxcd.io/v1beta3",
    kind: "Alert",
    metadata: { name: "dead", namespace: dead, labels },
    spec: { providerRef: { name: "dead" }, eventSources: [{ kind: "Kustomization", name: "*" }] },
  });
  await until(
    "the dead Alert Ready",
    async () => isReady(await client.get(`${NC}/namespaces/${dead}/alerts/dead`)),
    120_000,
  );
  const loadBefore = load();
  const withoutAlerts = await batch(quiet, targets[0], repo.url);
  const withDeadProvider = await batch(dead, targets[1], repo.url);
  const heldAfter = stall?.held();
  const withoutAlertsAgain = await batch(quiet2, targets[2], repo.url);
  const loadAfter = load();
  const provider = await client.get(`${NC}/namespaces/${dead}/providers/dead`);
  const ready = provider.status?.conditions?.find((c) => c.type === "Ready");
  console.log(
    JSON.stringify(
      {
        n: N,
        dead: DEAD,
        concurrent: Number(CONCURRENT),
        cores: cpus().length,
        seconds: {
          withoutAlerts: +withoutAlerts.toFixed(1),
          withDeadProvider: +withDeadProvider.toFixed(1),
          withoutAlertsAgain: +withoutAlertsAgain.toFixed(1),
        },
        ratioDeadToMeanWithout: +(withDeadProvider / ((withoutAlerts + withoutAlertsAgain) / 2)).toFixed(2),
        ...(stall ? { deliveriesHeldOpenWhenDeadBatchReady: heldAfter } : {}),
        providerReady: ready ? `${ready.status} ${ready.reason}` : "unset",
        loadAverage: { before: loadBefore, after: loadAfter },
      },
      null,
      2,
    ),
  );
} finally {
  child?.kill("SIGTERM");
  await stall?.close();
  await git.close();
  for (const ns of namespaces) await client.delete(`/api/v1/namespaces/${ns}`).catch(() => {});
  rmSync(storage, { recursive: true, force: true });
}
