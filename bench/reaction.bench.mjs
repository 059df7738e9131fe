#!/usr/bin/env node
// Benchmark: how fast flotilla reacts, on a real local fleet (management + 2 tenant planes), with the real
// `flotilla controller` process (Flux's limits: 50 QPS / burst 300, --concurrent 20):
//   1. push → converged: one GitRepository (interval 1h, so only the webhook explains convergence), K app
//      Kustomizations per plane (interval 1h; tenants through spec.kubeConfig Secrets) and a GitHub Receiver.
//      Each round commits a change to every app's ConfigMap, POSTs a signed GitHub push to the hook, and
//      times from the start of the commit until all 3K Kustomizations are Ready at the new revision and
//      every plane holds the changed ConfigMaps (polled every 100 ms).
//   2. hand edit → restored, hand delete → recreated (drift watch, decision 0026): per plane, a merge patch
//      of an applied ConfigMap by another field manager, and a deleted Deployment, timed until put back.
//   3. (if bench/support/flux-controllers.mjs can start Flux) the same hand edit against Flux's
//      kustomize-controller on a fresh single plane, Kustomization interval 1m (support/reaction-flux.mjs).
//
// usage: node bench/reaction.bench.mjs [--apps 10] [--rounds 5] [--no-flux]
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { appFiles } from "./support/controller-bench.mjs";
import * as rf from "./support/reaction-fleet.mjs";
import { FLUX_INTERVAL_S, fluxDriftRounds } from "./support/reaction-flux.mjs";

const argOf = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const APPS = Number(argOf("apps", "10"));
const ROUNDS = Number(argOf("rounds", "5"));
const LIMITS = { concurrent: 20, qps: 50, burst: 300 };
if (!(Number.isInteger(APPS) && APPS >= 1) || !(Number.isInteger(ROUNDS) && ROUNDS >= 1))
  throw new Error("--apps and --rounds must be whole numbers of at least 1");

const { upFleet, downFleet } = await import("../dist/local/index.js");
const { freePort } = await import("../dist/local/ports.js");
const { startGitHttpServer } = await import("../dist/demo/git-http-server.js");
const { KubeClient, closeAllConnections, setDefaultRateLimit } = await import("../dist/kube/client.js");
const { endpointFromKubeconfigFile } = await import("../dist/kube/kubeconfig.js");
setDefaultRateLimit({ qps: 1000, burst: 2000 }); // the benchmark's own client must not be what limits the run

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const sha = (() => {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return "?";
  }
})();

// Everything started is stopped on the way out: failure and Ctrl-C included.
const cleanups = new Set();
async function cleanAll() {
  for (const fn of [...cleanups].reverse()) await Promise.resolve(fn()).catch((e) => console.error(String(e)));
  cleanups.clear();
}
let interrupted = false;
for (const sig of ["SIGINT", "SIGTERM"])
  process.once(sig, () => ((interrupted = true), void cleanAll().then(() => process.exit(130))));

/** Part 1 and 2 on a fresh fleet of management + 2 tenants. */
async function flotillaParts(git) {
  const work = mkdtempSync(join(tmpdir(), "reaction-"));
  const dir = join(work, "fleet");
  cleanups.add(() => rmSync(work, { recursive: true, force: true }));
  cleanups.add(() => downFleet(dir));
  const fleet = await upFleet({ dir, tenants: 2 });
  const planes = fleet.state.planes.map((p) => ({
    ...p,
    client: new KubeClient(endpointFromKubeconfigFile(p.kubeconfig)),
  }));
  const mgmtPlane = planes.find((p) => p.role === "management");
  const mgmt = mgmtPlane.client;
  for (const p of planes) await rf.ensure(p.client, "/api/v1/namespaces", { metadata: { name: rf.APPS_NS } });
  await rf.ensure(mgmt, "/api/v1/namespaces", { metadata: { name: rf.NS } });
  const repo = await git.createRepo("apps");
  const files = (round) => Object.assign({}, ...Array.from({ length: APPS }, (_, i) => appFiles(i, { round })));
  let head = await repo.commit(files("0"), `${APPS} apps`);

  const ports = { storage: await freePort(), health: await freePort(), receiver: await freePort() };
  const storage = join(work, "storage");
  const controller = rf.startFlotillaController({ kubeconfig: mgmtPlane.kubeconfig, storage, ports, limits: LIMITS });
  cleanups.add(() => controller.stop());
  const alive = () => !controller.dead();
  const fail = (e) => new Error(`${e.message}\n--- flotilla controller, ${controller.tail()}`);
  const token = randomBytes(24).toString("hex");
  const hookPath = await rf
    .createFleetObjects({ mgmt, planes, url: repo.url, apps: APPS, token, alive })
    .catch((e) => Promise.reject(fail(e)));

  const converge = (t0, rev, round, timeoutMs) =>
    rf.convergeTimes({ mgmt, planes, apps: APPS, t0, rev, round, timeoutMs, alive });

  try {
    await converge(performance.now(), `main@sha1:${head}`, "0", 300_000);
    const hookUrl = `http://127.0.0.1:${ports.receiver}${hookPath}`;
    const push = { load: load(), perPlane: Object.fromEntries(planes.map((p) => [p.name, []])), all: [] };
    for (let r = 1; r <= ROUNDS; r++) {
      const t0 = performance.now();
      head = await repo.commit(files(String(r)), `round ${r}`);
      await rf.githubPush(hookUrl, token, head);
      const done = await converge(t0, `main@sha1:${head}`, String(r), 120_000);
      for (const [name, s] of Object.entries(done)) push.perPlane[name].push(s);
      push.all.push(Math.max(...Object.values(done)));
      console.error(`reaction: push round ${r}/${ROUNDS}: ${push.all.at(-1).toFixed(2)} s`);
    }

    await rf.sleep(2000); // the drift watches list once the inventories are in status
    const drift = { load: load(), edit: {}, del: {} };
    for (const p of planes) {
      drift.edit[p.name] = [];
      drift.del[p.name] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const app = `app-${r % APPS}`;
        const cm = `/api/v1/namespaces/${rf.APPS_NS}/configmaps/${app}`;
        const deploy = `/apis/apps/v1/namespaces/${rf.APPS_NS}/deployments/${app}`;
        drift.edit[p.name].push(await rf.editAndTime(p.client, cm, "index", 60_000));
        drift.del[p.name].push(await rf.deleteAndTime(p.client, deploy, 60_000));
        if (!alive()) throw new Error("the controller exited during the drift rounds");
      }
      console.error(`reaction: drift rounds on ${p.name} done`);
    }
    return { push, drift, planes: planes.map((p) => p.name) };
  } catch (e) {
    throw fail(e);
  }
}

console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, ${new Date().toISOString()}, flotilla ${sha}, load avg ${load()}; --concurrent ${LIMITS.concurrent} --kube-api-qps ${LIMITS.qps} --kube-api-burst ${LIMITS.burst}; apps=${APPS} per plane, rounds=${ROUNDS}`,
);
try {
  const git = await startGitHttpServer();
  cleanups.add(() => git.close());
  const { push, drift, planes } = await flotillaParts(git);
  // The fleet goes before Flux's plane comes up: the two never share the 2 cores.
  await cleanAll();
  const git2 = await startGitHttpServer();
  cleanups.add(() => git2.close());

  console.log(
    `\n## push → converged (${3 * APPS} Kustomizations on 3 planes; from the start of the commit; load avg ${push.load})\n`,
  );
  console.log(rf.TABLE_HEAD);
  for (const p of planes) console.log(rf.statsRow(p, push.perPlane[p]));
  console.log(rf.statsRow("all 3 planes", push.all));
  console.log(
    "| without the webhook | — | — | not measured: the GitRepository's interval (1h here; Flux default 1m in its docs examples) |",
  );

  const allDrift = [];
  for (const [what, key] of [
    ["hand edit → restored (ConfigMap merge patch by another field manager)", "edit"],
    ["hand delete → recreated (Deployment)", "del"],
  ]) {
    console.log(`\n## ${what} (Kustomization interval 1h; load avg ${drift.load})\n`);
    console.log(rf.TABLE_HEAD);
    for (const p of planes) console.log(rf.statsRow(p, drift[key][p]));
    allDrift.push(...planes.flatMap((p) => drift[key][p]));
  }

  let flux;
  if (process.argv.includes("--no-flux")) flux = { why: "--no-flux" };
  else {
    const fluxLoad = load();
    flux = await fluxDriftRounds({ rounds: ROUNDS, limits: LIMITS, git: git2, cleanups }).catch((e) => ({
      why: `failed: ${e.message}`,
    }));
    flux.load = fluxLoad;
  }
  if (flux.times) {
    console.log(
      `\n## Flux (source-controller ${flux.versions.source}, kustomize-controller ${flux.versions.kustomize}): hand edit → restored, Kustomization interval 1m, edits spread evenly over the interval (load avg ${flux.load})\n`,
    );
    console.log(rf.TABLE_HEAD);
    console.log(rf.statsRow("flux (fresh single plane)", flux.times));
  } else console.log(`\nFlux side-by-side skipped: ${flux.why}`);

  const line = (xs) => `median=${rf.fmt(rf.median(xs))}s max=${rf.fmt(Math.max(...xs))}s`;
  console.log("");
  console.log(`reaction: push-to-converged planes=3 apps=${3 * APPS} ${line(push.all)}`);
  console.log(`reaction: drift-restored ${line(allDrift)}`);
  if (flux.times) console.log(`reaction: flux-drift-restored interval=${FLUX_INTERVAL_S / 60}m ${line(flux.times)}`);
} catch (e) {
  process.exitCode = 1;
  console.error(interrupted ? "reaction: interrupted" : `reaction: ${e.stack ?? e}`);
} finally {
  await cleanAll();
  await closeAllConnections();
}
