#!/usr/bin/env node
// Benchmark: warm start (tools built) of `flotilla local up --tenants N` to all planes Ready.
// Measures wall time of the real CLI process and samples every plane's memory (PSS and RSS of its
// apiserver, controller-manager, scheduler and kwok) every 100 ms from start until SETTLE seconds
// after Ready, reporting the peak per plane. `--tenants 0` runs are the single-plane baseline the
// fleet start is compared with (ratio = how much 1+N planes cost over one).
//
// usage: node bench/local-up.bench.mjs [--runs 5] [--tenants 2] [--settle 15]
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg("runs", 5);
const TENANTS = arg("tenants", 2);
const SETTLE_S = arg("settle", 15);
const MiB = 1024 * 1024;

function readKb(file, field) {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(file, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function sample(dir, peaks) {
  let state;
  try {
    state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  } catch {
    return;
  }
  for (const plane of state.planes) {
    let pss = 0;
    let rss = 0;
    for (const p of plane.processes) {
      pss += readKb(`/proc/${p.pid}/smaps_rollup`, "Pss");
      rss += readKb(`/proc/${p.pid}/status`, "VmRSS");
    }
    const peak = peaks.get(plane.name) ?? { pss: 0, rss: 0 };
    peaks.set(plane.name, { pss: Math.max(peak.pss, pss), rss: Math.max(peak.rss, rss) });
  }
}

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["bin/flotilla.js", ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

async function once(tenants) {
  const dir = mkdtempSync(join(tmpdir(), "flotilla-bench-"));
  const peaks = new Map();
  const timer = setInterval(() => sample(dir, peaks), 100);
  const start = process.hrtime.bigint();
  const up = await run(["local", "up", "--tenants", String(tenants), "--dir", dir]);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (up.code !== 0) throw new Error(`local up failed: ${up.stderr}`);
  await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
  clearInterval(timer);
  sample(dir, peaks);
  await run(["local", "down", "--dir", dir]);
  rmSync(dir, { recursive: true, force: true });
  return { seconds, peaks };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const results = { fleet: [], single: [] };
for (let i = 0; i < RUNS; i++) {
  results.fleet.push(await once(TENANTS));
  results.single.push(await once(0));
  process.stderr.write(
    `run ${i + 1}/${RUNS}: fleet ${results.fleet.at(-1).seconds.toFixed(2)}s, single ${results.single.at(-1).seconds.toFixed(2)}s\n`,
  );
}

const fleetTimes = results.fleet.map((r) => r.seconds);
const singleTimes = results.single.map((r) => r.seconds);
const planePeaks = new Map();
for (const r of results.fleet) {
  for (const [name, p] of r.peaks) {
    const prev = planePeaks.get(name) ?? { pss: 0, rss: 0 };
    planePeaks.set(name, { pss: Math.max(prev.pss, p.pss), rss: Math.max(prev.rss, p.rss) });
  }
}

console.log(`# local up benchmark — ${new Date().toISOString()}`);
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}`,
);
console.log(`command: node bench/local-up.bench.mjs --runs ${RUNS} --tenants ${TENANTS} --settle ${SETTLE_S}`);
console.log("");
console.log("| measurement | median | min | max |");
console.log("|---|---|---|---|");
const row = (label, xs) =>
  console.log(
    `| ${label} | ${median(xs).toFixed(2)} s | ${Math.min(...xs).toFixed(2)} s | ${Math.max(...xs).toFixed(2)} s |`,
  );
row(`local up --tenants ${TENANTS} → all ${TENANTS + 1} planes Ready`, fleetTimes);
row("local up --tenants 0 → management plane Ready (baseline)", singleTimes);
console.log("");
console.log(
  `ratio fleet/single (median): ${(median(fleetTimes) / median(singleTimes)).toFixed(2)}× for ${TENANTS + 1}× the planes`,
);
console.log("");
console.log(`| plane | peak PSS | peak RSS (shared binary counted per process) |`);
console.log("|---|---|---|");
for (const [name, p] of planePeaks)
  console.log(`| ${name} | ${Math.round(p.pss / MiB)} MiB | ${Math.round(p.rss / MiB)} MiB |`);
