#!/usr/bin/env node
// Benchmark: sharding (issue 36). One fresh local fleet (`flotilla local up --tenants T`: a management plane
// and T real tenant planes), N Kustomizations of Flux's benchmark app (support/controller-bench.mjs) on the
// management plane, each applied to a tenant plane through its Kamaji admin kubeconfig Secret, reconciled
// by 1, 2 and 4 real `flotilla controller` processes laid out as `flotilla install --shards` deploys them
// (support/sharding-run.mjs). Reports, per configuration: time from the first create to all Ready, each
// process's CPU, peak RSS and own management-plane requests per object, the tenant planes' requests per
// object, and the management apiserver + etcd CPU. Configurations run one after the other on the same
// fleet, each in its own namespaces, removed before the next.
//
// usage: node bench/sharding.bench.mjs [--kustomizations 1000] [--processes 1,2,4] [--tenants 4]
//        [--concurrent 20] [--kube-api-qps 50] [--kube-api-burst 300] [--timeout-minutes 30] [--tmpdir /dev/shm]
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { appFiles, tmpfsOrTmpdir } from "./support/controller-bench.mjs";
import { runConfiguration } from "./support/sharding-run.mjs";
import { machineLine, report, summary } from "./support/sharding-report.mjs";

const argOf = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const N = Number(argOf("kustomizations", "1000"));
const PROCESSES = argOf("processes", "1,2,4").split(",").map(Number);
const TENANTS = Number(argOf("tenants", "4"));
const LIMITS = {
  concurrent: argOf("concurrent", "20"),
  qps: argOf("kube-api-qps", "50"),
  burst: argOf("kube-api-burst", "300"),
};
const TIMEOUT_MS = Number(argOf("timeout-minutes", "30")) * 60_000;
const fail = (m) => (console.error(`sharding: ${m}`), process.exit(2));
if (!Number.isInteger(N) || N < 1)
  fail(`--kustomizations must be a whole number above 0, got "${argOf("kustomizations")}"`);
if (!PROCESSES.length || PROCESSES.some((k) => !Number.isInteger(k) || k < 1 || k > 16))
  fail(`--processes must be whole numbers from 1 to 16, comma-separated, got "${argOf("processes")}"`);
if (!Number.isInteger(TENANTS) || TENANTS < 1 || TENANTS > 32)
  fail(`--tenants must be a whole number from 1 to 32, got "${argOf("tenants")}"`);
const BASE = argOf("tmpdir", tmpfsOrTmpdir());

const { upFleet, downFleet } = await import("../dist/local/index.js");
const { startGitHttpServer } = await import("../dist/demo/git-http-server.js");
const { KubeClient, closeAllConnections, setDefaultRateLimit } = await import("../dist/kube/client.js");
const { endpointFromKubeconfigFile } = await import("../dist/kube/kubeconfig.js");
setDefaultRateLimit({ qps: 1000, burst: 2000 }); // the benchmark's own client must not be what limits the run

// Progress on stderr with UTC time and elapsed seconds, so a long run shows where it is.
const t0 = Date.now();
const progress = (line) =>
  console.error(
    `[${new Date().toISOString().slice(11, 19)}Z +${((Date.now() - t0) / 1000).toFixed(0)} s] sharding: ${line}`,
  );

const cleanups = new Set();
const later = (fn) => (cleanups.add(fn), () => cleanups.delete(fn));
async function cleanAll() {
  for (const fn of [...cleanups].reverse()) await Promise.resolve(fn()).catch((e) => console.error(String(e)));
  cleanups.clear();
}
for (const sig of ["SIGINT", "SIGTERM"]) process.once(sig, () => void cleanAll().then(() => process.exit(130)));

console.log(machineLine(LIMITS, BASE));
console.log(
  `sharding: ${N} Kustomizations over ${TENANTS} tenant planes; controller processes ${PROCESSES.join(", ")}`,
);
const results = [];
try {
  const work = mkdtempSync(join(BASE, "sharding-"));
  later(() => rmSync(work, { recursive: true, force: true }));
  const dir = join(work, "fleet");
  later(() => downFleet(dir));
  const fleet = await upFleet({ dir, tenants: TENANTS });
  progress(`fleet up: management + ${TENANTS} tenant planes`);
  const [m, ...ts] = fleet.state.planes;
  const superClient = (p) => new KubeClient(endpointFromKubeconfigFile(p.superAdminKubeconfig)); // APF-exempt
  const mgmt = {
    client: superClient(m),
    plane: {
      pki: join(dir, "planes", m.name, "pki"),
      planeName: m.name,
      server: endpointFromKubeconfigFile(m.kubeconfig).server,
    },
    procs: [
      ...m.processes.filter((x) => x.component === "kube-apiserver").map((x) => [x.component, x.pid]),
      ["etcd", fleet.state.etcd.process.pid],
    ],
  };
  const tenants = ts.map((p) => ({ name: p.name, client: superClient(p) }));
  const git = await startGitHttpServer();
  later(() => git.close());
  const repo = await git.createRepo("apps");
  await repo.commit(Object.assign({}, ...Array.from({ length: N }, (_, i) => appFiles(i))), `${N} apps`);
  for (const [r, k] of PROCESSES.entries()) {
    progress(`${k} controller process(es): starting (${r + 1}/${PROCESSES.length})`);
    const res = await runConfiguration({
      n: N,
      k,
      mgmt,
      tenants,
      url: repo.url,
      work,
      limits: LIMITS,
      timeoutMs: TIMEOUT_MS,
      later,
      last: r === PROCESSES.length - 1,
    });
    if (res.error) process.exitCode = 1;
    progress(
      `${k} controller process(es): ${res.error ? `failed: ${res.error}` : `all Ready in ${res.seconds?.toFixed(1)} s`}`,
    );
    report(res, N, TENANTS);
    results.push(res);
  }
  summary(results, N, TENANTS);
} catch (e) {
  process.exitCode = 1;
  console.error(`sharding: ${e.stack ?? e}`);
} finally {
  await cleanAll();
  await closeAllConnections();
}
