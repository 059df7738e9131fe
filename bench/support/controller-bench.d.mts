// Types of controller-bench.mjs, for the benchmarks written in TypeScript (run through vitest).
import type { ChildProcess } from "node:child_process";

export function procStatus(pid: number, field: "VmRSS" | "VmHWM"): number;
export function cpuSeconds(pid: number): number;
export function isReady(o: {
  metadata: { generation?: number };
  status?: { observedGeneration?: number; conditions?: { type: string; status: string }[] };
}): boolean;
export function until(what: string, fn: () => Promise<unknown>, timeoutMs: number, intervalMs?: number): Promise<void>;
export function startBenchController(o: {
  kubeconfig: string;
  storage: string;
  storagePort: number;
  healthPort: number;
  concurrent: number;
  qps: string | number;
  burst: string | number;
  env?: Record<string, string>;
}): ChildProcess;
