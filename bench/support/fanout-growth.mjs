// For bench/fleet-fanout.bench.mjs: what a tenant plane costs in memory (so a run says whether 32 planes fit
// before growing to them) and the slope per cluster of the run's figures (least squares over N).
//
// A plane's memory is its processes' proportional set size (PSS, /proc/PID/smaps_rollup): the planes run the
// same kube-apiserver, controller-manager, scheduler and kwok binaries, whose file pages every plane shares,
// so summing RSS would count those pages once per plane. The shared etcd is reported apart.
import { readFileSync } from "node:fs";
import { leastSquares } from "./growth-report.mjs";

const MiB = 1024 * 1024;

/** Proportional set size of a process in bytes (0 when it is gone). */
export function pss(pid) {
  try {
    const m = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8").match(/^Pss:\s+(\d+) kB/m);
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** MemAvailable of the machine, bytes. */
export function memAvailable() {
  return Number(readFileSync("/proc/meminfo", "utf8").match(/^MemAvailable:\s+(\d+) kB/m)[1]) * 1024;
}

/** state: the fleet's state.json. Management plane, mean tenant plane, etcd: PSS in bytes. */
export function planeMemory(state) {
  const of = (p) => p.processes.reduce((a, x) => a + pss(x.pid), 0);
  const tenants = state.planes.filter((p) => p.role === "tenant").map(of);
  return {
    management: of(state.planes.find((p) => p.role === "management")),
    tenants: tenants.length,
    perTenant: tenants.length ? tenants.reduce((a, b) => a + b, 0) / tenants.length : 0,
    etcd: pss(state.etcd.process.pid),
  };
}

/** Whether `more` tenant planes fit in MemAvailable at the measured cost per plane, with 2 GiB to spare. */
export function fitFor(more, mem, available = memAvailable()) {
  const need = more * mem.perTenant;
  return {
    fits: need + 2 * 1024 * MiB <= available,
    line: `${more} more tenant plane(s) × ${(mem.perTenant / MiB).toFixed(0)} MiB (PSS per plane at ${mem.tenants}) = ${(need / MiB / 1024).toFixed(1)} GiB; MemAvailable ${(available / MiB / 1024).toFixed(1)} GiB`,
  };
}

/** Markdown: memory per N, and the slope per cluster of time, memory and idle requests over the runs with N ≥ 1. */
export function fanoutGrowthLines(runs) {
  const out = ["\nPlanes' memory (PSS: shared binary pages split among the planes):\n"];
  out.push("| tenant planes | per tenant plane | management plane | etcd | MemAvailable |");
  out.push("| --- | --- | --- | --- | --- |");
  for (const r of runs.filter((x) => x.mem))
    out.push(
      `| ${r.n} | ${(r.mem.perTenant / MiB).toFixed(0)} MiB | ${(r.mem.management / MiB).toFixed(0)} MiB | ${(r.mem.etcd / MiB).toFixed(0)} MiB | ${(r.available / MiB / 1024).toFixed(1)} GiB |`,
    );
  const fits = [
    ["commit → all Ready", (r) => r.commitReadyS * 1000, "ms"],
    ["FleetKustomization creation → all Ready", (r) => r.createReadyS * 1000, "ms"],
    ["controller settled RSS", (r) => r.settledRss / MiB, "MiB"],
    ["controller idle requests / min (management + tenants)", (r) => r.idle.mgmtCtl + r.idle.tenantCtl, "requests/min"],
    ["tenant plane PSS (all tenant planes)", (r) => (r.mem ? (r.mem.perTenant * r.n) / MiB : NaN), "MiB"],
  ];
  out.push("\n| slope per cluster (least squares over N) | slope | intercept | N |", "| --- | --- | --- | --- |");
  const withN = runs.filter((r) => r.n >= 1);
  for (const [what, y, unit] of fits) {
    const pts = withN.map((r) => [r.n, y(r)]).filter(([, v]) => Number.isFinite(v));
    const fit = leastSquares(pts);
    out.push(
      fit
        ? `| ${what} | ${fit.slope.toFixed(2)} ${unit} / cluster | ${fit.intercept.toFixed(1)} ${unit} | ${pts.map(([x]) => x).join(", ")} |`
        : `| ${what} | n/a (fewer than two N) | | |`,
    );
  }
  return out;
}
