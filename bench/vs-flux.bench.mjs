#!/usr/bin/env node
// Benchmark: Flux's benchmark shapes (N Kustomizations of the flux-benchmark app from one GitRepository;
// N HelmReleases of a chart of the same app from one HelmRepository) reconciled by Flux's own controllers
// (source-controller + kustomize-controller or helm-controller, built by `npm run build:flux`) and by
// `flotilla controller`, one after the other on ONE fresh local plane per shape, with the same client
// limits and concurrency; the order alternates between shapes (--order fixes it). Between the runs the
// controllers are stopped and the run's namespaces deleted. Flux's CRDs (from the Go module cache, at the
// pins of tools/flux/versions.env) are applied before Flux's run; flotilla installs its own
// (--install-crds). Each run has its own client certificate and FlowSchemas, so the controllers' own
// requests are counted apart from the benchmark's (see support/vs-flux-plane.mjs).
//
// --source oci (`npm run bench:oci`): the same shapes from a local OCI registry instead — the apps as one Flux
// artifact, the chart pushed by helm — through an OCIRepository (Kustomizations' sourceRef, HelmReleases' chartRef).
//
// usage: node bench/vs-flux.bench.mjs [--kustomizations 100,500,1000] [--helmreleases 100,500] [--source git|oci]
//        [--order alternate|flotilla-first|flux-first] [--concurrent 20] [--kube-api-qps 50]
//        [--kube-api-burst 300] [--timeout-minutes 30] [--tmpdir /dev/shm] [--only flotilla|flux]
// --only runs one of the two (to iterate on one controller's figures; the ratio then reads n/a).
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { appFiles, tmpfsOrTmpdir } from "./support/controller-bench.mjs";
import { startChartServer } from "./support/chart-server.mjs";
import { startOciSource } from "./support/oci-sources.mjs";
import * as fc from "./support/flux-controllers.mjs";
import { createFlowSchemas } from "./support/vs-flux-plane.mjs";
import { machineLine, report } from "./support/vs-flux-report.mjs";
import { runTool } from "./support/vs-flux-run.mjs";

const argOf = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const counts = (s) => (s ? s.split(",").map(Number) : []);
const onlyOne = argOf("kustomizations") || argOf("helmreleases");
const SHAPES = [
  ...counts(argOf("kustomizations", onlyOne ? "" : "100,500,1000")).map((n) => ["kustomizations", n]),
  ...counts(argOf("helmreleases", onlyOne ? "" : "100,500")).map((n) => ["helmreleases", n]),
];
const ORDER = argOf("order", "alternate");
const SOURCE = argOf("source", "git");
const ONLY = argOf("only", "");
if (ONLY && !["flotilla", "flux"].includes(ONLY)) throw new Error(`--only must be flotilla or flux, not '${ONLY}'`);
if (!["git", "oci"].includes(SOURCE)) throw new Error(`--source must be git or oci, not '${SOURCE}'`);
const LIMITS = {
  concurrent: argOf("concurrent", "20"),
  qps: argOf("kube-api-qps", "50"),
  burst: argOf("kube-api-burst", "300"),
};
const BASE = argOf("tmpdir", tmpfsOrTmpdir());
const TIMEOUT_MS = Number(argOf("timeout-minutes", "30")) * 60_000;

const { upFleet, downFleet, locateToolchain } = await import("../dist/local/index.js");
const { startGitHttpServer } = await import("../dist/demo/git-http-server.js");
const { KubeClient, closeAllConnections, setDefaultRateLimit } = await import("../dist/kube/client.js");
const { endpointFromKubeconfigFile } = await import("../dist/kube/kubeconfig.js");
setDefaultRateLimit({ qps: 1000, burst: 2000 }); // the benchmark's own client must not be what limits the run

const BIN = join(locateToolchain().dir, "bin");

// Everything started is stopped on the way out, Ctrl-C included.
const cleanups = new Set();
const later = (fn) => (cleanups.add(fn), () => cleanups.delete(fn));
async function cleanAll() {
  for (const fn of [...cleanups].reverse()) await Promise.resolve(fn()).catch((e) => console.error(String(e)));
  cleanups.clear();
}
for (const sig of ["SIGINT", "SIGTERM"]) process.once(sig, () => void cleanAll().then(() => process.exit(130)));

/** Why Flux cannot run this shape (binaries, CRDs), or its binaries and CRD directories. */
function fluxFor(kind) {
  const other = kind === "kustomizations" ? "kustomize" : "helm";
  const bins = ["source", other].map((c) => [c, fc.fluxBinary(BIN, c)]);
  const why = bins.map(([, b]) => b.why).filter(Boolean);
  if (why.length) return { why: why.join("\n") };
  try {
    return {
      other,
      binaries: Object.fromEntries(bins.map(([c, b]) => [c, b.path])),
      crds: fc.fluxCrdDirs(["source", other]),
    };
  } catch (e) {
    return { why: `Flux's CRDs not found in the Go module cache: ${e.message}` };
  }
}

async function runShape(kind, n, s) {
  const fluxFirst = ORDER === "flux-first" || (ORDER === "alternate" && s % 2 === 1);
  const flux = fluxFor(kind);
  const tools = (fluxFirst ? ["flux", "flotilla"] : ["flotilla", "flux"]).filter(
    (t) => (t === "flotilla" || !flux.why) && (!ONLY || t === ONLY),
  );
  const work = mkdtempSync(join(BASE, "vs-flux-"));
  const dir = join(work, "fleet");
  later(() => rmSync(work, { recursive: true, force: true }));
  later(() => downFleet(dir));
  const fleet = await upFleet({ dir, tenants: 0 });
  const p = fleet.state.planes[0];
  const admin = new KubeClient(endpointFromKubeconfigFile(p.superAdminKubeconfig)); // system:masters: APF-exempt
  const plane = {
    pki: join(dir, "planes", p.name, "pki"),
    planeName: p.name,
    server: endpointFromKubeconfigFile(p.kubeconfig).server,
    superAdminKubeconfig: p.superAdminKubeconfig,
  };
  const planeProcs = [...p.processes.map((x) => [x.component, x.pid]), ["etcd", fleet.state.etcd.process.pid]];
  for (const t of tools) await createFlowSchemas(admin, t);
  // Flux's CRDs are on the plane before either run (also the kinds flotilla does not serve).
  if (!flux.why) fc.applyFluxCrds(join(BIN, "kubectl"), p.superAdminKubeconfig, flux.crds);
  let url;
  let tag;
  if (SOURCE === "oci") {
    const files =
      kind === "kustomizations" ? Object.assign({}, ...Array.from({ length: n }, (_, i) => appFiles(i))) : {};
    const oci = await startOciSource(kind, files, join(BIN, "helm"));
    later(() => oci.close());
    ({ url, tag } = oci);
  } else if (kind === "kustomizations") {
    const git = await startGitHttpServer();
    later(() => git.close());
    const repo = await git.createRepo("apps");
    await repo.commit(Object.assign({}, ...Array.from({ length: n }, (_, i) => appFiles(i))), `${n} apps`);
    url = repo.url;
  } else {
    const charts = await startChartServer(join(BIN, "helm"));
    later(() => charts.close());
    url = charts.url;
  }
  const ctx = {
    kind,
    n,
    admin,
    plane,
    flux,
    work,
    url,
    tag,
    source: SOURCE,
    planeProcs,
    bin: BIN,
    limits: LIMITS,
    timeoutMs: TIMEOUT_MS,
    later,
  };
  const results = {};
  for (const [r, tool] of tools.entries())
    results[tool] = await runTool(tool, { ...ctx, last: r === tools.length - 1 }, r);
  await cleanAll();
  return { kind, n, order: tools, fluxWhy: flux.why, ...results };
}

console.log(machineLine(LIMITS, fc.fluxVersions(), BASE));
if (SOURCE === "oci") console.log("source: a local OCI registry through an OCIRepository (--source oci)");
for (const [s, [kind, n]] of SHAPES.entries())
  try {
    report(await runShape(kind, n, s), LIMITS);
  } catch (e) {
    process.exitCode = 1;
    console.error(`vs-flux: ${n} ${kind}: ${e.stack ?? e}`);
    console.log(`\nvs-flux: ${kind}=${n} flotilla=n/a flux=n/a ratio=n/a`);
  } finally {
    await cleanAll();
  }
await closeAllConnections();
