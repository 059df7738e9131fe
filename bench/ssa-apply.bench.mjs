#!/usr/bin/env node
// Benchmark: apply N small objects (ConfigMaps, Services, ServiceAccounts, Deployments with 0
// replicas, as in Flux's own benchmark) to one local plane — cold, then re-applied unchanged —
// with flotilla's resource manager and with `kubectl apply --server-side` (built in tools/) on the
// same set, in the same run, each in its own fresh namespace. Each side runs as its own process so
// its peak RSS is its own.
//
// usage: node bench/ssa-apply.bench.mjs [--objects 1000] [--runs 3]
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg("objects", 1000);
const RUNS = arg("runs", 3);
const MiB = 1024 * 1024;

const { upFleet, downFleet, locateToolchain } = await import("../dist/local/index.js");

function objects(ns) {
  const out = [];
  for (let i = 0; i < N / 4; i++) {
    const name = `app-${i}`;
    out.push({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name, namespace: ns },
      data: { index: String(i), color: "blue" },
    });
    out.push({ apiVersion: "v1", kind: "ServiceAccount", metadata: { name, namespace: ns } });
    out.push({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name, namespace: ns },
      spec: { selector: { app: name }, ports: [{ name: "http", port: 80, targetPort: 8080, protocol: "TCP" }] },
    });
    out.push({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name, namespace: ns },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { serviceAccountName: name, containers: [{ name: "app", image: "nginx:1.27" }] },
        },
      },
    });
  }
  return out;
}

/** Runs a command, sampling its peak RSS (VmHWM) from /proc while it runs. */
function timed(command, args, env = process.env) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let peak = 0;
    let stdout = "";
    let stderr = "";
    const sample = () => {
      try {
        const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (m) peak = Math.max(peak, Number(m[1]) * 1024);
      } catch {
        // the process just exited between samples
      }
    };
    const timer = setInterval(sample, 20);
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      clearInterval(timer);
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      if (code !== 0) return reject(new Error(`${command} exited ${code}: ${stderr.slice(-500)}`));
      resolve({ seconds, peak, stdout });
    });
  });
}

const fleetDir = mkdtempSync(join(tmpdir(), "flotilla-bench-ssa-"));
const work = mkdtempSync(join(tmpdir(), "flotilla-bench-ssa-files-"));
const fleet = await upFleet({ dir: fleetDir, tenants: 0 });
const kubeconfig = fleet.state.planes[0].kubeconfig;
const kubectl = join(locateToolchain().dir, "bin", "kubectl");
const results = { kubectl: { cold: [], again: [] }, flotilla: { cold: [], again: [] } };

try {
  for (let run = 1; run <= RUNS; run++) {
    for (const tool of ["kubectl", "flotilla"]) {
      const ns = `bench-${tool}-${run}`;
      await timed(kubectl, ["--kubeconfig", kubeconfig, "create", "namespace", ns]);
      const file = join(work, `${ns}.json`);
      writeFileSync(file, JSON.stringify({ apiVersion: "v1", kind: "List", items: objects(ns) }));
      const cmd =
        tool === "kubectl"
          ? [kubectl, ["--kubeconfig", kubeconfig, "apply", "--server-side", "--field-manager=bench", "-f", file]]
          : [process.execPath, ["bench/ssa-apply-worker.mjs", kubeconfig, file]];
      const cold = await timed(...cmd);
      const again = await timed(...cmd);
      results[tool].cold.push(cold);
      results[tool].again.push(again);
      process.stderr.write(
        `run ${run} ${tool}: cold ${cold.seconds.toFixed(2)}s, re-apply ${again.seconds.toFixed(2)}s\n`,
      );
      if (tool === "flotilla") process.stderr.write(`  ${cold.stdout.trim()} | ${again.stdout.trim()}\n`);
    }
  }
} finally {
  await downFleet(fleetDir).catch(() => {});
  rmSync(fleetDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (rs) => N / median(rs.map((r) => r.seconds));
const peak = (rs) => Math.max(...rs.map((r) => r.peak)) / MiB;

console.log(`# apply benchmark — ${new Date().toISOString()}`);
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}`,
);
console.log(`command: node bench/ssa-apply.bench.mjs --objects ${N} --runs ${RUNS}`);
console.log("");
console.log("| tool | cold apply | re-apply (no changes) | peak RSS |");
console.log("|---|---|---|---|");
for (const tool of ["kubectl", "flotilla"]) {
  const r = results[tool];
  console.log(
    `| ${tool === "kubectl" ? "kubectl apply --server-side" : "flotilla resource manager"} | ${rate(r.cold).toFixed(0)} objects/s (${median(r.cold.map((x) => x.seconds)).toFixed(2)} s) | ${rate(r.again).toFixed(0)} objects/s (${median(r.again.map((x) => x.seconds)).toFixed(2)} s) | ${peak([...r.cold, ...r.again]).toFixed(0)} MiB |`,
  );
}
console.log("");
console.log(
  `ratio flotilla/kubectl: cold ${(rate(results.flotilla.cold) / rate(results.kubectl.cold)).toFixed(2)}×, re-apply ${(rate(results.flotilla.again) / rate(results.kubectl.again)).toFixed(2)}×`,
);
