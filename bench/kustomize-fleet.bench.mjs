#!/usr/bin/env node
// Benchmark: render a generated fleet — N cluster overlays over shared bases, each with a namePrefix,
// namespace, labels, a configMapGenerator and patches (strategic merge and JSON 6902) — with
// flotilla's kustomize in one warm process, and with the kustomize binary spawned once per overlay,
// in the same run; then, as a fair baseline, one build of a parent kustomization listing every overlay on
// each side (one start-up each). Every output must be identical between the two.
//
// usage: node bench/kustomize-fleet.bench.mjs [--overlays 200]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join, relative } from "node:path";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg("overlays", 200);
const { buildKustomization } = await import("../dist/kustomize/index.js");
const { locateToolchain } = await import("../dist/local/toolchain.js");
const kustomize = join(locateToolchain().dir, "bin", "kustomize");

const root = mkdtempSync(join(tmpdir(), "flotilla-bench-kustomize-"));
const write = (path, text) => {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
};

// Shared bases: an app and a monitoring agent.
write(
  "base/app/deployment.yaml",
  `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      serviceAccountName: web
      containers:
      - name: web
        image: ghcr.io/example/web:1.0.0
        envFrom:
        - configMapRef:
            name: web-settings
        ports:
        - containerPort: 8080
          name: http
`,
);
write(
  "base/app/service.yaml",
  "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n  - port: 80\n    targetPort: http\n",
);
write("base/app/serviceaccount.yaml", "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: web\n");
write(
  "base/app/kustomization.yaml",
  "resources:\n- deployment.yaml\n- service.yaml\n- serviceaccount.yaml\nconfigMapGenerator:\n- name: web-settings\n  literals:\n  - LOG_LEVEL=info\n",
);
write(
  "base/agent/daemonset.yaml",
  "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector:\n    matchLabels:\n      app: agent\n  template:\n    metadata:\n      labels:\n        app: agent\n    spec:\n      containers:\n      - name: agent\n        image: ghcr.io/example/agent:2.1.0\n",
);
write("base/agent/kustomization.yaml", "resources:\n- daemonset.yaml\n");

const overlays = [];
for (let i = 0; i < N; i++) {
  const dir = `clusters/cluster-${i}`;
  overlays.push(join(root, dir));
  write(
    `${dir}/kustomization.yaml`,
    `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: cluster-${i}
namePrefix: c${i}-
labels:
- pairs:
    cluster: cluster-${i}
    region: region-${i % 7}
  includeSelectors: false
resources:
- ../../base/app
- ../../base/agent
configMapGenerator:
- name: web-settings
  behavior: merge
  literals:
  - CLUSTER=cluster-${i}
  - SHARD=${i % 16}
images:
- name: ghcr.io/example/web
  newTag: 1.0.${i % 10}
patches:
- path: replicas.yaml
- target:
    kind: DaemonSet
  patch: |-
    - op: add
      path: /spec/template/spec/containers/0/args
      value: ["--cluster=cluster-${i}"]
`,
  );
  write(
    `${dir}/replicas.yaml`,
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: ${1 + (i % 3)}\n`,
  );
}

const runKustomize = (dir) => runProcess(kustomize, ["build", dir]);

/** Runs a command to completion: its stdout and its peak resident memory (sampled from /proc). */
function runProcess(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    const out = [];
    let peak = 0;
    const timer = setInterval(() => {
      try {
        const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (m) peak = Math.max(peak, Number(m[1]) * 1024);
      } catch {
        // exited between samples
      }
    }, 5);
    child.stdout.on("data", (d) => out.push(d));
    child.on("error", reject);
    child.on("close", (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`${command} ${args.join(" ")} exited ${code}`));
      else resolve({ text: Buffer.concat(out).toString("utf8"), peak });
    });
  });
}

try {
  // flotilla: one warm process (a first build warms the JIT, as a running controller would be).
  await buildKustomization(overlays[0]);
  const rssBefore = process.memoryUsage().rss;
  let oursPeak = rssBefore;
  const ours = [];
  const t0 = process.hrtime.bigint();
  for (const [i, dir] of overlays.entries()) {
    ours.push(await buildKustomization(dir));
    // Reading RSS costs ~40 µs; every 10th overlay is often enough for a peak that moves slowly.
    if (i % 10 === 9) oursPeak = Math.max(oursPeak, process.memoryUsage.rss());
  }
  oursPeak = Math.max(oursPeak, process.memoryUsage.rss());
  const oursSeconds = Number(process.hrtime.bigint() - t0) / 1e9;

  const theirs = [];
  let theirPeak = 0;
  const t1 = process.hrtime.bigint();
  for (const dir of overlays) {
    const r = await runKustomize(dir);
    theirs.push(r.text);
    theirPeak = Math.max(theirPeak, r.peak);
  }
  const theirSeconds = Number(process.hrtime.bigint() - t1) / 1e9;

  // The fair baseline: one parent kustomization listing every overlay, so each side starts once and
  // renders the whole fleet in one build (the ratio above also counts kustomize's process start-up).
  write("kustomization.yaml", `resources:\n${overlays.map((d) => `- ${relative(root, d)}\n`).join("")}`);
  const parent = root;
  // flotilla in a fresh process too (Node start-up, module load, nothing cached), timed spawn to exit.
  const entry = new URL("../dist/kustomize/index.js", import.meta.url).href;
  const script = `import(${JSON.stringify(entry)}).then((m) => m.buildKustomization(process.argv[1])).then((o) => process.stdout.write(o))`;
  const t2 = process.hrtime.bigint();
  const oursWholeRun = await runProcess(process.execPath, ["-e", script, parent]);
  const oursWholeSeconds = Number(process.hrtime.bigint() - t2) / 1e9;
  const oursWhole = oursWholeRun.text;
  const t3 = process.hrtime.bigint();
  const theirsWhole = await runKustomize(parent);
  const theirWholeSeconds = Number(process.hrtime.bigint() - t3) / 1e9;

  const identical = ours.filter((o, i) => o === theirs[i]).length;
  const perOurs = (oursSeconds / N) * 1000;
  const perTheirs = (theirSeconds / N) * 1000;
  console.log(`# kustomize fleet render benchmark — ${new Date().toISOString()}`);
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}`,
  );
  console.log(`command: node bench/kustomize-fleet.bench.mjs --overlays ${N}`);
  console.log("");
  console.log("| renderer | total | per overlay | peak memory |");
  console.log("|---|---|---|---|");
  console.log(
    `| kustomize binary, one process per overlay | ${theirSeconds.toFixed(2)} s | ${perTheirs.toFixed(1)} ms | ${(theirPeak / 2 ** 20).toFixed(0)} MiB per process |`,
  );
  console.log(
    `| flotilla, one warm process | ${oursSeconds.toFixed(2)} s | ${perOurs.toFixed(2)} ms | ${(oursPeak / 2 ** 20).toFixed(0)} MiB RSS |`,
  );
  console.log(
    `| kustomize binary, one build of a parent listing all overlays | ${theirWholeSeconds.toFixed(2)} s | ${((theirWholeSeconds / N) * 1000).toFixed(1)} ms | ${(theirsWhole.peak / 2 ** 20).toFixed(0)} MiB |`,
  );
  console.log(
    `| flotilla, one build of the same parent in a new process | ${oursWholeSeconds.toFixed(2)} s | ${((oursWholeSeconds / N) * 1000).toFixed(2)} ms | ${(oursWholeRun.peak / 2 ** 20).toFixed(0)} MiB |`,
  );
  console.log("");
  console.log(`ratio: ${(perTheirs / perOurs).toFixed(1)}× faster; identical output: ${identical}/${N} overlays`);
  const wholeSame = oursWhole === theirsWhole.text;
  console.log(
    `fair baseline (one build each): ${(theirWholeSeconds / oursWholeSeconds).toFixed(1)}× faster; identical output: ${wholeSame ? "yes" : "NO"}`,
  );
  if (identical !== N || !wholeSame) process.exitCode = 1;
} finally {
  rmSync(root, { recursive: true, force: true });
}
