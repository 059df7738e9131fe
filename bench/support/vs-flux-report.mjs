// For bench/vs-flux.bench.mjs: the report of one shape (a markdown table and the vs-flux line) and the
// machine line.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";

const MiB = 1024 * 1024;
const secs = (r) => (r && !r.error ? `${r.seconds.toFixed(2)}s` : "n/a");
const f2 = (x) => (x === undefined ? "n/a" : x.toFixed(2));
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const perProc = (r, xs, fmt) => (xs.length > 1 ? ` (${xs.map((x, i) => `${r.procs[i]} ${fmt(x)}`).join(" + ")})` : "");
const perObj = (m, key, n) => ((m?.get(key) ?? 0) / n).toFixed(2);

export function report(x, limits) {
  const { kind, n, flotilla: a, flux: b } = x;
  const both = [a, b];
  const cell = (fn) => both.map((r) => (r && !r.error ? fn(r) : r ? `n/a (${r.error})` : "n/a")).join(" | ");
  const ratio = (fa, fb) => (a && b && !a.error && !b.error ? f2(fa / fb) : "n/a");
  const mib = (v) => `${(v / MiB).toFixed(0)} MiB`;
  console.log(
    `\n### ${n} ${kind} — order: ${x.order.join(" then ")}; load average at start: ${both
      .map((r) => (r ? `${r.tool} ${r.load}` : ""))
      .filter(Boolean)
      .join(", ")}`,
  );
  if (x.fluxWhy) console.log(`Flux not run: ${x.fluxWhy}`);
  console.log("\n| | flotilla | Flux | ratio |\n| --- | --- | --- | --- |");
  console.log(
    `| creation to all Ready | ${cell((r) => `${r.seconds.toFixed(2)} s (creates ${r.created.toFixed(1)} s)`)} | ${ratio(b?.seconds, a?.seconds)} (Flux / flotilla) |`,
  );
  console.log(`| per object | ${cell((r) => `${((r.seconds * 1000) / n).toFixed(0)} ms`)} | |`);
  console.log(
    `| controller CPU | ${cell((r) => `${sum(r.cpu).toFixed(1)} s${perProc(r, r.cpu, (v) => v.toFixed(1))}`)} | ${ratio(b && sum(b.cpu), a && sum(a.cpu))} (Flux / flotilla) |`,
  );
  console.log(
    `| peak RSS (VmHWM) | ${cell((r) => `${mib(sum(r.rss))}${perProc(r, r.rss, mib)}`)} | ${ratio(a && sum(a.rss), b && sum(b.rss))} (flotilla / Flux) |`,
  );
  console.log(
    `| peak RSS of the process trees (children included, sampled every 250 ms) | ${cell((r) => mib(r.treeRss))} | ${ratio(a?.treeRss, b?.treeRss)} (flotilla / Flux) |`,
  );
  console.log(`| apiserver + etcd + kcm + scheduler + kwok CPU | ${cell((r) => `${r.planeCpu.toFixed(1)} s`)} | |`);
  const own = (r) => sum([...r.flow.values()]) / n;
  console.log(
    `| controllers' own requests / object | ${cell((r) => own(r).toFixed(2))} | ${ratio(b && own(b), a && own(a))} (Flux / flotilla) |`,
  );
  // flotilla has one token bucket per cluster; controller-runtime (Flux) one per GVK's REST client, each with
  // the same QPS and burst: at equal flags Flux's total may exceed the QPS. The floor is one bucket's.
  console.log(`| own requests / s over the window | ${cell((r) => ((own(r) * n) / r.seconds).toFixed(0))} | |`);
  const floor = (r) => Math.max(0, own(r) * n - limits.burst) / limits.qps;
  console.log(`| one bucket's floor: (own requests − burst) / QPS | ${cell((r) => `${floor(r).toFixed(1)} s`)} | |`);
  const verbs = new Set(both.flatMap((r) => (r?.flow ? [...r.flow.keys()].map((k) => k.split(" ")[1]) : [])));
  for (const v of [...verbs].sort())
    console.log(`| — ${v} (own) | ${cell((r) => perObj(r.flow, `${r.tool} ${v}`, n))} | |`);
  const keys = new Set(both.flatMap((r) => (r?.all ? [...r.all].filter(([, c]) => c >= n / 2).map(([k]) => k) : [])));
  for (const k of [...keys].sort()) console.log(`| ${k} (all clients) | ${cell((r) => perObj(r.all, k, n))} | |`);
  console.log(`\nvs-flux: ${kind}=${n} flotilla=${secs(a)} flux=${secs(b)} ratio=${ratio(b?.seconds, a?.seconds)}`);
}

/** The type of the filesystem holding `path` (the longest mount point of /proc/mounts above it). */
function fsType(path) {
  const mounts = readFileSync("/proc/mounts", "utf8")
    .split("\n")
    .map((l) => l.split(" "));
  const above = mounts.filter(([, at]) => at && (path === at || path.startsWith(at.endsWith("/") ? at : `${at}/`)));
  return above.sort((a, b) => b[1].length - a[1].length)[0]?.[2] ?? "unknown";
}

/** cpus, model, memory, Node, date, git HEAD, and the run's limits and Flux's pins. */
export function machineLine(limits, versions, base) {
  let sha = "unknown";
  try {
    const git = ["rev-parse", "--short", "HEAD"];
    sha = execFileSync("git", git, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    // not a git checkout
  }
  const flux = Object.entries(versions).map(([c, v]) => `${c}-controller ${v}`);
  return [
    `machine: ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, ${new Date().toISOString()}, flotilla ${sha}`,
    `limits: --concurrent ${limits.concurrent} --kube-api-qps ${limits.qps} --kube-api-burst ${limits.burst}; Flux ${flux.join(", ")}`,
    `one fresh local plane per shape, both runs on it (namespaces removed between); plane, artifact storage and controllers' TMPDIR under ${base} (${fsType(base)})`,
    "requests of all clients include the benchmark's creates and 1 s polls",
  ].join("\n");
}
