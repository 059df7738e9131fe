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
//        [--plane-kcm-qps 200]
// --plane-kcm-qps raises the plane's kube-controller-manager client limit (default QPS 20, burst 30) for both
// tools: at the default its deployment controller, not either tool, bounds HelmReleases (decision 0055).
// --only runs one of the two (to iterate on one controller's figures; the ratio then reads n/a).
// Profiling flotilla's side (decision 0042): FLOTILLA_BENCH_CONTROLLER_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>"
// gives the controller Node flags, FLOTILLA_HELM_ENGINE_CPUPROFILE=<file> makes the helm engine write Go CPU profiles,
// FLOTILLA_BENCH_AUDIT=<file> keeps the plane's audit log of the controllers' requests (a per-request timeline).
import * as fc from "./support/flux-controllers.mjs";
import { tmpfsOrTmpdir } from "./support/controller-bench.mjs";
import { machineLine, report } from "./support/vs-flux-report.mjs";
import { cleanAll, runShape } from "./support/vs-flux-shape.mjs";

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
const KCM_QPS = argOf("plane-kcm-qps", "") ? Number(argOf("plane-kcm-qps")) : undefined;
if (KCM_QPS !== undefined && !(KCM_QPS >= 1)) throw new Error("--plane-kcm-qps must be a number of at least 1");
const TIMEOUT_MS = Number(argOf("timeout-minutes", "30")) * 60_000;

const { closeAllConnections, setDefaultRateLimit } = await import("../dist/kube/client.js");
setDefaultRateLimit({ qps: 1000, burst: 2000 }); // the benchmark's own client must not be what limits the run
const OPTIONS = {
  ...{ order: ORDER, only: ONLY, source: SOURCE, limits: LIMITS, base: BASE, timeoutMs: TIMEOUT_MS },
  kcmQps: KCM_QPS,
};

console.log(machineLine(LIMITS, fc.fluxVersions(), BASE));
console.log(
  `plane: kube-controller-manager client ${KCM_QPS ? `QPS ${KCM_QPS}, burst ${2 * KCM_QPS} (--plane-kcm-qps)` : "QPS 20, burst 30 (its defaults)"}`,
);
if (SOURCE === "oci") console.log("source: a local OCI registry through an OCIRepository (--source oci)");
for (const [s, [kind, n]] of SHAPES.entries())
  try {
    report(await runShape(kind, n, s, OPTIONS), LIMITS);
  } catch (e) {
    process.exitCode = 1;
    console.error(`vs-flux: ${n} ${kind}: ${e.stack ?? e}`);
    console.log(`\nvs-flux: ${kind}=${n} flotilla=n/a flux=n/a ratio=n/a`);
  } finally {
    await cleanAll();
  }
await closeAllConnections();
