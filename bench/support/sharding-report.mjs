// For bench/sharding.bench.mjs: one configuration's table (a row per controller process) and the summary
// across configurations, in markdown as docs/benchmarks.md holds them.
import { execFileSync } from "node:child_process";
import { cpus, loadavg, totalmem } from "node:os";

const MiB = 1024 * 1024;
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const s1 = (x) => (x === undefined ? "n/a" : `${x.toFixed(1)} s`);
const mib = (x) => `${(x / MiB).toFixed(0)} MiB`;

export function report(r, n, tenants) {
  console.log(
    `\n### ${r.k} controller process${r.k > 1 ? "es" : ""}, ${n} Kustomizations over ${tenants} tenant planes`,
  );
  console.log(`load average at start: ${r.load}${r.error ? `; error: ${r.error}` : ""}`);
  if (!r.cpu) return;
  console.log(
    "\n| process | selector's objects | its objects all Ready | CPU | peak RSS | management-plane requests / object |",
  );
  console.log("| --- | --- | --- | --- | --- | --- |");
  r.procs.forEach((name, i) => {
    const objects = Math.ceil((n - i) / r.k);
    console.log(
      `| ${name} | ${objects} | ${s1(r.shardSeconds[i])} | ${r.cpu[i].toFixed(1)} s | ${mib(r.rss[i])} | ${(r.requests[i] / objects).toFixed(2)} |`,
    );
  });
  console.log(
    `\ncreation to all Ready ${s1(r.seconds)} (creates ${r.created.toFixed(1)} s); controllers' CPU ${sum(r.cpu).toFixed(1)} s, ` +
      `peak RSS summed ${mib(sum(r.rss))}; management apiserver + etcd CPU ${r.planeCpu.toFixed(1)} s; ` +
      `requests / object: management ${(sum(r.requests) / n).toFixed(2)}, tenant planes ${(r.tenantRequests / n).toFixed(2)}`,
  );
}

export function summary(results, n, tenants) {
  console.log(`\n### Sharding: ${n} Kustomizations over ${tenants} tenant planes, one management plane`);
  console.log(
    "\n| processes | creation to all Ready | Kustomizations / s | CPU, all processes | CPU per process (max) | peak RSS per process (max) | management requests / object | tenant requests / object | load at start |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const r of results) {
    if (!r.cpu || r.seconds === undefined) {
      console.log(`| ${r.k} | n/a (${r.error}) | | | | | | | ${r.load} |`);
      continue;
    }
    console.log(
      `| ${r.k} | ${s1(r.seconds)} | ${(n / r.seconds).toFixed(1)} | ${sum(r.cpu).toFixed(1)} s | ${Math.max(...r.cpu).toFixed(1)} s | ${mib(Math.max(...r.rss))} | ${(sum(r.requests) / n).toFixed(2)} | ${(r.tenantRequests / n).toFixed(2)} | ${r.load} |`,
    );
  }
  const line = results.map((r) => `${r.k}=${r.seconds === undefined ? "n/a" : r.seconds.toFixed(2)}`).join(" ");
  console.log(`\nsharding: kustomizations=${n} tenants=${tenants} seconds ${line}`);
}

export function machineLine(limits, base) {
  let sha = "unknown";
  try {
    sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    // not a git checkout
  }
  return [
    `machine: ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, ${new Date().toISOString()}, flotilla ${sha}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
    `limits per process: --concurrent ${limits.concurrent} --kube-api-qps ${limits.qps} --kube-api-burst ${limits.burst}; planes, storage and TMPDIR under ${base}`,
  ].join("\n");
}
