// For bench/growth.bench.mjs: the growth table (one row per N, flotilla and Flux side by side) and the slope per
// object of each figure, a least-squares line over the Ns where that side finished. Pure: no process, no I/O.

const MiB = 1024 * 1024;
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** Least squares y = a + b·x over the points; undefined below two distinct x. */
export function leastSquares(points) {
  const n = points.length;
  if (n < 2) return undefined;
  const mx = sum(points.map(([x]) => x)) / n;
  const my = sum(points.map(([, y]) => y)) / n;
  const sxx = sum(points.map(([x]) => (x - mx) ** 2));
  if (sxx === 0) return undefined;
  const slope = sum(points.map(([x, y]) => (x - mx) * (y - my))) / sxx;
  return { slope, intercept: my - slope * mx, points: n };
}

/** The figures of one side's run, or why there are none; a capped run keeps its n/N Ready. */
export function figures(r, n) {
  if (!r) return undefined;
  const finished = !r.error && r.seconds !== undefined;
  return {
    finished,
    seconds: r.seconds,
    cpu: r.cpu ? sum(r.cpu) : undefined,
    rss: r.rss ? sum(r.rss) : undefined,
    treeRss: r.treeRss,
    requests: r.flow ? sum([...r.flow.values()]) / n : undefined,
    load: r.load,
    capped: r.capped,
    ready: r.ready,
    error: r.error,
  };
}

/** "> 600 s, 812/1000 Ready" for a side past its cap; the error for a failed one; seconds otherwise. */
export function timeCell(f, n, capSeconds) {
  if (!f) return "not run";
  if (f.capped) return `> ${capSeconds} s, ${f.ready ?? 0}/${n} Ready`;
  if (f.error) return `failed: ${f.error}`;
  return `${f.seconds.toFixed(1)} s`;
}

const num = (x, fmt) => (x === undefined || Number.isNaN(x) ? "n/a" : fmt(x));
const ratio = (a, b) => (a && b ? (a / b).toFixed(2) : "n/a");

/** rows: [{kind, n, flotilla, flux}] of figures(); caps: {flotilla, flux} in seconds. Markdown lines. */
export function growthTable(kind, rows, caps) {
  const out = [
    `| ${kind} N | flotilla: all Ready | Flux: all Ready | time ratio (Flux / flotilla) | CPU s: flotilla / Flux | peak RSS MiB: flotilla / Flux | process-tree peak RSS MiB: flotilla / Flux | own requests / object: flotilla / Flux | 1-min load at start: flotilla / Flux |`,
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const { n, flotilla: a, flux: b } of rows) {
    const pair = (fn) => `${a ? fn(a) : "n/a"} / ${b ? fn(b) : "n/a"}`;
    const bothDone = a?.finished && b?.finished;
    out.push(
      `| ${n} | ${timeCell(a, n, caps.flotilla)} | ${timeCell(b, n, caps.flux)} | ${bothDone ? ratio(b.seconds, a.seconds) : b?.capped && a?.finished ? `> ${ratio(caps.flux, a.seconds)}` : "n/a"} | ${pair((f) => num(f.cpu, (x) => x.toFixed(1)))} | ${pair((f) => num(f.rss, (x) => (x / MiB).toFixed(0)))} | ${pair((f) => num(f.treeRss, (x) => (x / MiB).toFixed(0)))} | ${pair((f) => num(f.requests, (x) => x.toFixed(2)))} | ${pair((f) => f.load?.split(" ")[0] ?? "n/a")} |`,
    );
  }
  return out;
}

const FITS = [
  ["time to all Ready", (f) => f.seconds * 1000, "ms"],
  ["controller CPU", (f) => f.cpu * 1000, "CPU ms"],
  ["controller peak RSS", (f) => f.rss / 1024, "KiB"],
  ["process-tree peak RSS", (f) => f.treeRss / 1024, "KiB"],
];

/** The slope per object of each figure, per side, over the Ns that side finished (a capped N is left out). */
export function slopeTable(kind, rows) {
  const out = [`| ${kind}: slope per object (least squares over N) | flotilla | Flux |`, "| --- | --- | --- |"];
  for (const [what, y, unit] of FITS) {
    const cell = (side) => {
      const pts = rows.filter((r) => r[side]?.finished).map((r) => [r.n, y(r[side])]);
      const fit = leastSquares(pts.filter(([, v]) => Number.isFinite(v)));
      if (!fit) return `n/a (${pts.length} finished N)`;
      return `${fit.slope.toFixed(fit.slope < 10 ? 2 : 0)} ${unit} / object (intercept ${fit.intercept.toFixed(0)} ${unit}; N = ${pts.map(([x]) => x).join(", ")})`;
    };
    out.push(`| ${what} | ${cell("flotilla")} | ${cell("flux")} |`);
  }
  return out;
}
