#!/usr/bin/env node
// Parity harness: builds every case of the kustomize corpora — flotilla's own (test/fixtures/kustomize)
// and kustomize's own test suite (test/fixtures/kustomize-krusty, scripts/krusty-cases.sh) — with the real
// kustomize binary and with flotilla's native implementation (dist/kustomize/index.js, contract
// `buildKustomization(dir, options): Promise<string>` returning exactly what `kustomize build` prints
// on stdout, throwing on failure), and compares the two byte for byte. Cases marked for helm
// (parity-cases.mjs) are built with helm enabled on both sides, using the pinned helm. A case is identical when both
// succeed with equal output, or, on an `error-` case, both fail for the problem its expected-error.json
// names (each side's phrase present, ours a FlotillaError rather than a crash). Prints one entry per
// difference (a unified-style diff or the error text), then per corpus the split — identical, refused
// by name, differing — and a final line `N/M identical or refused by name`; exits 1 on any difference.
//
// usage: node scripts/parity.mjs [--filter <substring>] [--verbose]
import { execFile } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";
import {
  errorExpectation,
  errorMismatches,
  FIXTURES_ROOT,
  kustomizeArgs,
  KRUSTY_DELIBERATE,
  KRUSTY_ROOT,
  listCases,
  listKrustyCases,
  requireTool,
} from "./parity-cases.mjs";

const KUSTOMIZE_CONCURRENCY = 2;
const KUSTOMIZE_TIMEOUT_MS = 60_000;
const MAX_DIFF_LINES = 40;
const CONTEXT_LINES = 3;

function parseArgs(argv) {
  const opts = { filter: "", verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--verbose" || arg === "-v") opts.verbose = true;
    else if (arg === "--filter") {
      if (argv[i + 1] === undefined) usage("--filter needs a value");
      opts.filter = argv[++i];
    } else if (arg.startsWith("--filter=")) opts.filter = arg.slice("--filter=".length);
    else if (arg === "--help" || arg === "-h") usage();
    else usage(`unknown argument: ${arg}`);
  }
  return opts;
}

function usage(problem) {
  if (problem) console.error(`parity: ${problem}`);
  console.error("usage: node scripts/parity.mjs [--filter <substring>] [--verbose]");
  process.exit(problem ? 2 : 0);
}

const toolsBin = join(process.env.FLOTILLA_TOOLS_DIR || join(homedir(), ".cache", "flotilla", "tools"), "bin");
const helmBinary = join(toolsBin, "helm");

/** Runs `kustomize build` on a case; resolves to { ok, status, stdout: Buffer, stderr: string }. */
function runKustomize(bin, c) {
  return new Promise((resolve) => {
    execFile(
      bin,
      kustomizeArgs(c, helmBinary),
      { encoding: "buffer", maxBuffer: 256 * 1024 * 1024, timeout: KUSTOMIZE_TIMEOUT_MS },
      (err, stdout, stderr) => {
        const errText = stderr.toString("utf8").trim();
        if (err) {
          const why = err.killed ? `timed out after ${KUSTOMIZE_TIMEOUT_MS} ms` : `exit code ${err.code}`;
          resolve({ ok: false, status: err.code ?? null, stdout, stderr: errText || `kustomize failed (${why})` });
        } else resolve({ ok: true, status: 0, stdout, stderr: errText });
      },
    );
  });
}

/** Starts `worker(item)` for every item with at most `limit` in flight; returns one promise per item. */
function mapLimited(items, limit, worker) {
  const results = items.map(() => {
    let resolve;
    const promise = new Promise((r) => (resolve = r));
    return { promise, resolve };
  });
  let next = 0;
  const pump = async () => {
    while (next < items.length) {
      const i = next++;
      results[i].resolve(await worker(items[i]));
    }
  };
  for (let n = 0; n < Math.min(limit, items.length); n++) void pump();
  return results.map((r) => r.promise);
}

async function loadImplementation() {
  try {
    const mod = await import("../dist/kustomize/index.js");
    if (typeof mod.buildKustomization !== "function") {
      return { error: "dist/kustomize/index.js does not export a function buildKustomization" };
    }
    const { isFlotillaError } = await import("../dist/util/errors.js");
    return { build: mod.buildKustomization, isFlotillaError };
  } catch (err) {
    return { error: `cannot import dist/kustomize/index.js: ${errorText(err)}` };
  }
}

async function runOurs(impl, c) {
  try {
    const out = await impl.build(c.dir, c.enableHelm ? { enableHelm: true, helmCommand: helmBinary } : {});
    if (typeof out !== "string")
      return { ok: false, message: `buildKustomization returned ${typeof out}, not a string`, isFlotillaError: false };
    return { ok: true, stdout: Buffer.from(out, "utf8") };
  } catch (err) {
    return { ok: false, message: errorText(err), isFlotillaError: impl.isFlotillaError(err) };
  }
}

function errorText(err) {
  if (err instanceof Error) return err.message || String(err);
  return String(err);
}

// ---- a small line diff: common prefix/suffix trimmed, LCS on the rest, unified-style hunks

function diffOps(a, b) {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops = [];
  for (let i = 0; i < start; i++) ops.push({ t: " ", line: a[i], ai: i, bi: i });
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  if (n * m > 25_000_000) {
    // Too large for the quadratic table: show the whole middle as replaced.
    midA.forEach((line, k) => ops.push({ t: "-", line, ai: start + k, bi: start }));
    midB.forEach((line, k) => ops.push({ t: "+", line, ai: endA, bi: start + k }));
  } else {
    // lcs[i][j] = length of the LCS of midA[i..] and midB[j..], stored row-major.
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * w + j] =
          midA[i] === midB[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        ops.push({ t: " ", line: midA[i], ai: start + i, bi: start + j });
        i++;
        j++;
      } else if (i < n && (j === m || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
        ops.push({ t: "-", line: midA[i], ai: start + i, bi: start + j });
        i++;
      } else {
        ops.push({ t: "+", line: midB[j], ai: start + i, bi: start + j });
        j++;
      }
    }
  }
  for (let k = 0; k < a.length - endA; k++) ops.push({ t: " ", line: a[endA + k], ai: endA + k, bi: endB + k });
  return ops;
}

function visible(line) {
  // Make invisible differences visible: carriage returns and trailing whitespace.
  return line.replace(/\r/g, "\\r").replace(/[ \t]+$/, (ws) => ws.replace(/ /g, "·").replace(/\t/g, "→"));
}

/** Unified-style diff from `a` (kustomize) to `b` (ours), cut after MAX_DIFF_LINES changed lines. */
function unifiedDiff(aText, bText) {
  const a = aText.split("\n");
  const b = bText.split("\n");
  const ops = diffOps(a, b);
  const changed = ops.map((op, k) => (op.t === " " ? -1 : k)).filter((k) => k >= 0);
  if (changed.length === 0) return ["  (outputs differ only in bytes not visible per line)"];
  // Group changed ops into hunks with CONTEXT_LINES of context on either side.
  const hunks = [];
  for (const k of changed) {
    const last = hunks[hunks.length - 1];
    if (last && k - last.end <= 2 * CONTEXT_LINES + 1) last.end = k;
    else hunks.push({ start: k, end: k });
  }
  const out = ["  --- kustomize", "  +++ flotilla"];
  let shown = 0;
  for (const hunk of hunks) {
    const from = Math.max(0, hunk.start - CONTEXT_LINES);
    const to = Math.min(ops.length - 1, hunk.end + CONTEXT_LINES);
    const slice = ops.slice(from, to + 1);
    const aCount = slice.filter((op) => op.t !== "+").length;
    const bCount = slice.filter((op) => op.t !== "-").length;
    out.push(`  @@ -${slice[0].ai + 1},${aCount} +${slice[0].bi + 1},${bCount} @@`);
    for (const op of slice) {
      if (op.t !== " " && shown >= MAX_DIFF_LINES) {
        out.push(`  ... (${changed.length - shown} more differing lines)`);
        return out;
      }
      out.push(`  ${op.t}${visible(op.line)}`);
      if (op.t !== " ") shown++;
    }
  }
  return out;
}

function indent(text, max = 20) {
  const lines = text.split("\n");
  const head = lines.slice(0, max).map((l) => `  ${l}`);
  if (lines.length > max) head.push(`  ... (${lines.length - max} more lines)`);
  return head.join("\n");
}

// ---- main

// Piped into `head` and the like: stop quietly once the reader is gone.
process.stdout.on("error", (err) => {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 1);
  throw err;
});

const opts = parseArgs(process.argv.slice(2));
const bin = join(toolsBin, "kustomize");
const corpora = [
  { label: "own corpus (test/fixtures/kustomize)", cases: listCases(FIXTURES_ROOT) },
  { label: "kustomize's api/krusty tests (test/fixtures/kustomize-krusty)", cases: listKrustyCases(KRUSTY_ROOT) },
];
for (const corpus of corpora) corpus.cases = corpus.cases.filter((c) => c.name.includes(opts.filter));
const cases = corpora.flatMap((corpus) => corpus.cases.map((c) => ({ ...c, corpus })));
if (cases.length === 0) {
  console.error(`parity: no case matches ${JSON.stringify(opts.filter)}`);
  process.exit(2);
}
try {
  requireTool("kustomize", bin);
  if (cases.some((c) => c.enableHelm)) requireTool("helm", helmBinary);
} catch (err) {
  console.error(`parity: ${errorText(err)}`);
  process.exit(2);
}

const impl = await loadImplementation();
if (impl.error) console.log(`parity: ${impl.error}\nparity: every case counts as a difference`);

/**
 * One case's outcome: "identical" (same output, or both fail for the expected problem), "refused"
 * (flotilla refuses by name what kustomize builds, as the case says it must), "differing", or
 * "corpus" (the case itself does not behave as it says). Prints what is wrong.
 */
async function judge(c, real) {
  let expected;
  try {
    if (c.expectError) expected = errorExpectation(c);
  } catch (err) {
    console.log(`✗ ${c.name}: CORPUS: ${errorText(err)}`);
    return "corpus";
  }
  if (c.expectError ? !real.stderr.includes(expected.kustomize) : !real.ok) {
    // The corpus itself is wrong: an error case kustomize no longer rejects for its problem, or a case that does not build.
    console.log(
      c.expectError
        ? `✗ ${c.name}: CORPUS: ${errorMismatches(expected, real, { ok: true })[0]}`
        : `✗ ${c.name}: CORPUS: real kustomize fails:\n${indent(real.stderr)}`,
    );
    return "corpus";
  }
  if (impl.error) return "differing";
  const ours = await runOurs(impl, c);
  const deliberate = KRUSTY_DELIBERATE[c.name];
  if (c.unsupported || deliberate) {
    const wanted = deliberate ?? /field "[^"]+" is not supported/;
    if (!ours.ok && wanted.test(ours.message)) return "refused";
    console.log(
      `✗ ${c.name}: must be refused naming the field, but ${ours.ok ? "flotilla builds it" : `fails otherwise:\n${indent(ours.message)}`}`,
    );
    return "differing";
  }
  if (expected) {
    const problems = errorMismatches(expected, real, ours);
    if (problems.length === 0) {
      if (opts.verbose)
        console.log(
          `✓ ${c.name} (both fail: ${expected.category})\n${indent(`kustomize: ${real.stderr}\nflotilla:  ${ours.message}`, 6)}`,
        );
      return "identical";
    }
    console.log(`✗ ${c.name}: not the ${expected.category} problem kustomize reports:\n${indent(problems.join("\n"))}`);
    return "differing";
  }
  if (ours.ok && real.stdout.equals(ours.stdout)) {
    if (opts.verbose) console.log(`✓ ${c.name}`);
    return "identical";
  }
  if (ours.ok)
    console.log(
      `✗ ${c.name}: output differs\n${unifiedDiff(real.stdout.toString("utf8"), ours.stdout.toString("utf8")).join("\n")}`,
    );
  else console.log(`✗ ${c.name}: flotilla fails, kustomize builds:\n${indent(ours.message)}`);
  return "differing";
}

const started = Date.now();
const realResults = mapLimited(cases, KUSTOMIZE_CONCURRENCY, (c) => runKustomize(bin, c));
const tally = new Map(corpora.map((corpus) => [corpus, { identical: 0, refused: 0, differing: 0, corpus: 0 }]));
for (const [index, c] of cases.entries()) tally.get(c.corpus)[await judge(c, await realResults[index])]++;

if (opts.verbose) console.log(`parity: ${cases.length} cases in ${((Date.now() - started) / 1000).toFixed(1)} s`);
let bad = 0;
for (const corpus of corpora) {
  if (!corpus.cases.length) continue;
  const t = tally.get(corpus);
  bad += t.differing + t.corpus;
  console.log(
    `${corpus.label}: ${corpus.cases.length} cases — ${t.identical} identical, ${t.refused} refused by name, ${t.differing} differing${t.corpus ? `, ${t.corpus} not behaving as the case says` : ""}`,
  );
}
const total = cases.length;
const same = [...tally.values()].reduce((n, t) => n + t.identical + t.refused, 0);
console.log(`${same}/${total} identical or refused by name`);
process.exitCode = bad ? 1 : 0;
