#!/usr/bin/env node
// Benchmark: growth curves (issue 36, item 4). The shapes of bench/vs-flux.bench.mjs (N Kustomizations of Flux's
// benchmark app from one GitRepository; N HelmReleases of its chart from one HelmRepository) at several N, flotilla
// and Flux side by side, each N on a FRESH plane (support/vs-flux-shape.mjs: fair, every N starts from an empty
// etcd; a plane costs ~10–30 s, small beside the runs). Each side's wait for all Ready is capped
// (--flux-cap-seconds, --flotilla-cap-seconds): past its cap a side is reported as "> cap, n/N Ready" with the CPU
// and memory of the capped window, and left out of the slopes. Prints each shape's vs-flux table as it finishes,
// then one growth table per kind and the slope per object (least squares over N, per side). Progress lines with
// UTC timestamps go to stderr.
//
// The default caps keep the default run (6 shapes) near 25 minutes on a quiet 2-core machine (~30 if Flux is capped
// at 1000 too): flotilla is expected well inside 420 s at every default N; Flux, extrapolated from its 100 and 500
// (≈ N^1.18), needs ~190 s at 1000 and ~430 s at 2000, which the 360 s cap stops ("> 360 s, n/N Ready").
//
// usage: node bench/growth.bench.mjs [--kustomizations 100,500,1000,2000] [--helmreleases 100,500]
//        [--flux-cap-seconds 360] [--flotilla-cap-seconds 420] [--order alternate|flotilla-first|flux-first]
//        [--only flotilla|flux] [--concurrent 20] [--kube-api-qps 50] [--kube-api-burst 300] [--tmpdir /dev/shm]
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import * as fc from "./support/flux-controllers.mjs";
import { tmpfsOrTmpdir } from "./support/controller-bench.mjs";
import { figures, growthTable, slopeTable } from "./support/growth-report.mjs";
import { machineLine, report } from "./support/vs-flux-report.mjs";

const FLAGS = {
  ...{ kustomizations: "100,500,1000,2000", helmreleases: "100,500", order: "alternate", only: "" },
  ...{ "flux-cap-seconds": "360", "flotilla-cap-seconds": "420", concurrent: "20", "kube-api-qps": "50" },
  ...{ "kube-api-burst": "300", tmpdir: "" },
};
const fail = (m) => (console.error(`growth: ${m}`), process.exit(2));
const args = process.argv.slice(2);
const given = {};
for (let i = 0; i < args.length; i += 2) {
  const name = args[i].replace(/^--/, "");
  if (!args[i].startsWith("--") || !(name in FLAGS))
    fail(
      `unknown flag '${args[i]}': the flags are ${Object.keys(FLAGS)
        .map((f) => `--${f}`)
        .join(", ")}`,
    );
  if (args[i + 1] === undefined) fail(`--${name} needs a value`);
  given[name] = args[i + 1];
}
const arg = (name) => given[name] ?? FLAGS[name];
const counts = (name) => {
  const v = arg(name);
  const ns = v === "" || v === "0" ? [] : v.split(",").map(Number);
  if (ns.some((n) => !Number.isInteger(n) || n < 1))
    fail(`--${name} must be whole numbers above 0, comma-separated (or 0 for none), got "${v}"`);
  return ns;
};
const SHAPES = [
  ...counts("kustomizations").map((n) => ["kustomizations", n]),
  ...counts("helmreleases").map((n) => ["helmreleases", n]),
];
const ORDER = arg("order");
const ONLY = arg("only");
if (!["alternate", "flotilla-first", "flux-first"].includes(ORDER))
  fail(`--order must be alternate, flotilla-first or flux-first, got "${ORDER}"`);
if (ONLY && !["flotilla", "flux"].includes(ONLY)) fail(`--only must be flotilla or flux, got "${ONLY}"`);
const CAPS = { flotilla: Number(arg("flotilla-cap-seconds")), flux: Number(arg("flux-cap-seconds")) };
for (const [side, s] of Object.entries(CAPS))
  if (!(s >= 10))
    fail(`--${side}-cap-seconds must be a number of seconds, at least 10, got "${arg(`${side}-cap-seconds`)}"`);
const LIMITS = { concurrent: arg("concurrent"), qps: arg("kube-api-qps"), burst: arg("kube-api-burst") };
const BASE = arg("tmpdir") || tmpfsOrTmpdir();

const { closeAllConnections, setDefaultRateLimit } = await import("../dist/kube/client.js");
const { cleanAll, runShape } = await import("./support/vs-flux-shape.mjs");
setDefaultRateLimit({ qps: 1000, burst: 2000 }); // the benchmark's own client must not be what limits the run

const t0 = performance.now();
const progress = (line) =>
  console.error(
    `[${new Date().toISOString().slice(11, 19)}Z +${((performance.now() - t0) / 1000).toFixed(0)} s, load ${loadavg()[0].toFixed(1)}] growth: ${line}`,
  );
const OPTIONS = {
  ...{ order: ORDER, only: ONLY, source: "git", limits: LIMITS, base: BASE },
  ...{
    timeoutMs: Math.max(CAPS.flotilla, CAPS.flux) * 1000,
    capMs: { flotilla: CAPS.flotilla * 1000, flux: CAPS.flux * 1000 },
  },
  progress,
};

console.log(machineLine(LIMITS, fc.fluxVersions(), BASE));
console.log(
  `growth: ${SHAPES.map(([k, n]) => `${n} ${k}`).join(", ")}; each N on a fresh plane; order ${ORDER}${ONLY ? `; only ${ONLY}` : ""}; wait for all Ready capped at ${CAPS.flotilla} s (flotilla) and ${CAPS.flux} s (Flux)`,
);
const rows = { kustomizations: [], helmreleases: [] };
for (const [s, [kind, n]] of SHAPES.entries()) {
  progress(`${n} ${kind}: starting (${s + 1}/${SHAPES.length})`);
  try {
    const x = await runShape(kind, n, s, OPTIONS);
    report(x, LIMITS);
    rows[kind].push({ n, flotilla: figures(x.flotilla, n), flux: figures(x.flux, n) });
  } catch (e) {
    process.exitCode = 1;
    console.error(`growth: ${n} ${kind}: ${e.stack ?? e}`);
    rows[kind].push({ n, flotilla: { finished: false, error: e.message.split("\n")[0] } });
  } finally {
    await cleanAll();
  }
  progress(`${n} ${kind}: done`);
}
await closeAllConnections();

console.log(
  `\n## Growth — ${new Date().toISOString()}, whole run ${((performance.now() - t0) / 60_000).toFixed(1)} min\n`,
);
for (const kind of ["kustomizations", "helmreleases"]) {
  if (!rows[kind].length) continue;
  console.log([...growthTable(kind, rows[kind], CAPS), "", ...slopeTable(kind, rows[kind]), ""].join("\n"));
}
