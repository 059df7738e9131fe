// For bench/vs-flux.bench.mjs: Flux's own controllers (built by tools/build-flux.sh) and `flotilla
// controller` as processes against one local plane, with the same client limits and concurrency, a
// tail of each one's output, and /proc readings (CPU including reaped children, VmHWM).
import { execFileSync, spawn } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("../../", import.meta.url).pathname;
const { CONTROLLER_MALLOC_ARENA_MAX, CONTROLLER_NODE_OPTIONS } =
  await import("../../dist/install/controller-deployment.js");

/** Flux's pins (tools/flux/versions.env): { source: "v1.9.3", kustomize: ..., helm: ... }. */
export function fluxVersions() {
  const env = readFileSync(join(root, "tools/flux/versions.env"), "utf8");
  const pin = (name) => env.match(new RegExp(`^${name}_CONTROLLER_VERSION=(\\S+)`, "m"))?.[1];
  return { source: pin("SOURCE"), kustomize: pin("KUSTOMIZE"), helm: pin("HELM") };
}

/** A Flux controller binary in `bin` (tools/build-flux.sh's $FLOTILLA_TOOLS_DIR/bin): { path } or { why }. */
export function fluxBinary(bin, controller) {
  const path = join(bin, `flux-${controller}-controller`);
  try {
    accessSync(path, constants.X_OK);
    return { path };
  } catch {
    const error = join(bin, `.flux-${controller}-controller.error`);
    const why = existsSync(error) ? readFileSync(error, "utf8").trim() : "not built: run npm run build:flux";
    return { why: `flux-${controller}-controller: ${why}` };
  }
}

/** The config/crd/bases directories of Flux's controllers at their pins, from the Go module cache. */
export function fluxCrdDirs(controllers) {
  const versions = fluxVersions();
  const scratch = mkdtempSync(join(tmpdir(), "vs-flux-go-"));
  try {
    const env = { ...process.env, GOFLAGS: "", GOTOOLCHAIN: "local" };
    const cache = execFileSync("go", ["env", "GOMODCACHE"], { cwd: scratch, env, encoding: "utf8" }).trim();
    return controllers.map((c) => {
      const mod = `github.com/fluxcd/${c}-controller@${versions[c]}`;
      let dir = join(cache, mod);
      if (!existsSync(dir)) {
        const out = execFileSync("go", ["mod", "download", "-json", mod], { cwd: scratch, env, encoding: "utf8" });
        dir = JSON.parse(out).Dir;
      }
      return join(dir, "config/crd/bases");
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Applies Flux's CRDs (server-side, taking the fields back from flotilla's --install-crds). */
export function applyFluxCrds(kubectl, kubeconfig, dirs) {
  const files = dirs.flatMap((d) => ["-f", d]);
  const run = (args) => execFileSync(kubectl, ["--kubeconfig", kubeconfig, ...args], { encoding: "utf8" });
  run(["apply", "--server-side", "--force-conflicts", "--field-manager", "vs-flux-bench", ...files]);
  run(["wait", "--for=condition=Established", "--timeout=60s", ...files]);
}

/** A process whose last 50 output lines are kept (`tail()`), stopped with `stop()`. */
export function startProcess(name, command, args, env) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  const lines = [];
  const keep = (d) => {
    lines.push(...String(d).split("\n").filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 50));
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  child.on("error", (e) => keep(`spawn failed: ${e.message}`));
  return {
    name,
    child,
    pid: child.pid,
    tail: () =>
      `--- ${name} (pid ${child.pid}, exit ${child.exitCode ?? child.signalCode ?? "-"}), last lines:\n${lines.join("\n")}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const statFields = (pid) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
const ticks = (f) => (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100; // clock ticks (100 Hz)

/** Each process's children, by parent pid (strings), from /proc. */
function childrenByParent() {
  const children = new Map();
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d)))
    try {
      const ppid = statFields(pid)[1];
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // exited meanwhile
    }
  return children;
}

/**
 * CPU seconds of a process and its whole tree: its utime + stime, its reaped children's (cutime +
 * cstime: flotilla's helm processes), and the live descendants' own (a resident child such as the helm
 * engine, never reaped within a run, which cutime alone would miss).
 */
export function cpuWithChildren(pid) {
  const children = childrenByParent();
  let total = ticks(statFields(pid));
  for (const queue = [...(children.get(String(pid)) ?? [])]; queue.length;) {
    const child = queue.pop();
    queue.push(...(children.get(child) ?? []));
    try {
      total += ticks(statFields(child));
    } catch {
      // exited meanwhile: its time is in its parent's cutime once reaped
    }
  }
  return total;
}

/** VmRSS of the processes and all their descendants (flotilla's helm children, say), summed. */
export function treeRss(roots) {
  const children = childrenByParent();
  let rss = 0;
  for (const queue = roots.map(String); queue.length;) {
    const pid = queue.pop();
    queue.push(...(children.get(pid) ?? []));
    try {
      rss += Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
    } catch {
      // exited meanwhile
    }
  }
  return rss;
}

/** Waits until every process answers /readyz on its health address (and none has exited). */
export async function untilHealthy(procs, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (const p of procs)
    for (;;) {
      if (p.child.exitCode !== null) throw new Error(`${p.name} exited ${p.child.exitCode} at start\n${p.tail()}`);
      const ok = await fetch(`http://127.0.0.1:${p.healthPort}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`${p.name} not ready after ${timeoutMs / 1000} s\n${p.tail()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
}

const common = (o) => [
  `--concurrent=${o.concurrent}`,
  `--kube-api-qps=${o.qps}`,
  `--kube-api-burst=${o.burst}`,
  "--log-level=error",
];

/**
 * Flux: source-controller plus kustomize-controller or helm-controller, out of cluster (KUBECONFIG,
 * RUNTIME_NAMESPACE), watching all namespaces, no leader election, no notification-controller; the
 * source-controller's artifact server on loopback, advertised to the other one.
 */
export function startFlux(o) {
  const env = { ...o.env, KUBECONFIG: o.kubeconfig, RUNTIME_NAMESPACE: o.namespace };
  const flags = (c) => [
    ...common(o),
    "--enable-leader-election=false",
    "--watch-all-namespaces=true",
    "--events-addr=",
    `--metrics-addr=127.0.0.1:${c.metricsPort}`,
    `--health-addr=127.0.0.1:${c.healthPort}`,
  ];
  const source = { ...o.ports.source, name: "source-controller" };
  const other = { ...o.ports.other, name: `${o.other}-controller` };
  const storage = [
    `--storage-path=${o.storage}`,
    `--storage-addr=127.0.0.1:${o.ports.storagePort}`,
    `--storage-adv-addr=127.0.0.1:${o.ports.storagePort}`,
  ];
  return [
    { ...source, ...startProcess(source.name, o.binaries.source, [...flags(source), ...storage], env) },
    { ...other, ...startProcess(other.name, o.binaries[o.other], flags(other), env) },
  ];
}

/** `flotilla controller`: one process (source, Kustomization and HelmRelease controllers); its own CRDs. */
export function startFlotilla(o) {
  const args = [
    join(root, "bin/flotilla.js"),
    "controller",
    ...["--kubeconfig", o.kubeconfig, "--runtime-namespace", o.namespace],
    ...common(o),
    "--enable-leader-election=false",
    "--kamaji-discovery=false",
    "--install-crds",
    `--storage-path=${o.storage}`,
    `--storage-addr=127.0.0.1:${o.ports.storagePort}`,
    `--health-addr=127.0.0.1:${o.ports.source.healthPort}`,
  ];
  // The V8 flags the install's Deployment gives the controller (NODE_OPTIONS), added to the caller's.
  const NODE_OPTIONS = [process.env.NODE_OPTIONS, CONTROLLER_NODE_OPTIONS].filter(Boolean).join(" ");
  // Node's own flags for the controller (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", which NODE_OPTIONS refuses).
  const nodeArgs = (process.env.FLOTILLA_BENCH_CONTROLLER_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
  // glibc's malloc arenas as the Deployment sets them, unless the caller sets its own.
  const MALLOC_ARENA_MAX = process.env.MALLOC_ARENA_MAX ?? CONTROLLER_MALLOC_ARENA_MAX;
  const env = { ...o.env, NODE_OPTIONS, MALLOC_ARENA_MAX };
  const p = startProcess("flotilla controller", process.execPath, [...nodeArgs, ...args], env);
  return [{ ...p, healthPort: o.ports.source.healthPort }];
}
