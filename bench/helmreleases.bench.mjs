#!/usr/bin/env node
// Entry of the HelmRelease benchmark (bench/helmreleases.bench.test.ts, which runs through vitest because
// it serves its chart with the TypeScript test chart repository): takes the usual flags and hands them on.
//
// usage: node bench/helmreleases.bench.mjs [--counts 100,500] [--cycles 2] [--concurrent 10]
import { spawn } from "node:child_process";

const argOf = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const env = { ...process.env };
for (const [flag, name] of [
  ["counts", "FLOTILLA_BENCH_COUNTS"],
  ["cycles", "FLOTILLA_BENCH_CYCLES"],
  ["concurrent", "FLOTILLA_BENCH_CONCURRENT"],
]) {
  const value = argOf(flag);
  if (value !== undefined) env[name] = value;
}
const run = spawn("npx", ["vitest", "run", "--config", "vitest.bench.config.ts", "bench/helmreleases.bench.test.ts"], {
  stdio: "inherit",
  env,
});
// Stopped (Ctrl-C, timeout): stop the benchmark too, or its fleet and controller outlive this process.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => run.kill(signal));
run.on("exit", (code) => process.exit(code ?? 1));
