// Running helm: an argument array (never a shell), the minimal environment of a private home
// (home.ts), a timeout, cancellation by AbortSignal, and at most `helmConcurrency` processes at once
// per flotilla process, shared fairly between tenants (util/semaphore.ts). Stopping helm stops its whole
// process group, post-renderer included. A run that exits non-zero throws the typed error its stderr
// names (errors.ts).
//
//   const { stdout } = await runHelm(["template", "web", chartDir], { timeoutMs: 60_000, signal });
//   await runHelm(["upgrade", "--install", "web", chart], { kubeconfig: file, env: proxyEnv() });
//
// kustomize's build is synchronous, so it alone uses runHelmSync (which a running build blocks on anyway).
import { spawnSync } from "node:child_process";
import { killGroup, spawnInGroup } from "../../util/process-group.js";
import { Semaphore } from "../../util/semaphore.js";
import {
  HelmCancelledError,
  HelmError,
  helmErrorFrom,
  HelmNotFoundError,
  type HelmResult,
  HelmTimeoutError,
} from "./errors.js";
import { HelmHome } from "./home.js";
import { helmVersion, locateHelm } from "./locate.js";

export interface HelmRunOptions {
  /** Variables added to helm's minimal environment (proxies, HELM_* overrides); they win. */
  env?: Record<string, string>;
  /** A kubeconfig file for commands that talk to a cluster: passed as --kubeconfig. */
  kubeconfig?: string;
  /** A home shared with other runs (withHelmHome); by default each run gets its own, removed after. */
  home?: HelmHome;
  /** Written to helm's stdin (e.g. --password-stdin), so secrets never appear on a command line. */
  stdin?: string;
  cwd?: string;
  /** Killed (and HelmTimeoutError) after this long; 5 minutes by default, as helm's own --timeout. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** An explicit helm (kustomize's --helm-command); the pinned or PATH helm otherwise. */
  binary?: string;
  /** Whose process this is (a namespace): the slots are shared fairly between tenants. */
  tenant?: string;
}

export type { HelmResult };

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
/** After SIGTERM, how long helm may take to release its locks before SIGKILL. */
const KILL_GRACE_MS = 5_000;
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;
const DEFAULT_CONCURRENCY = 4;

const slots = new Semaphore(DEFAULT_CONCURRENCY);

/** Bounds how many helm processes run at once in this process (default 4). */
export function setHelmConcurrency(limit: number): void {
  slots.resize(limit);
}

// First, before the command: appended, it would be read as a positional after a "--" that ends the
// flags (helm-args.ts puts spec-derived names there), and helm would fall back to another kubeconfig.
const argv = (args: readonly string[], o: HelmRunOptions) =>
  o.kubeconfig ? ["--kubeconfig", o.kubeconfig, ...args] : [...args];

const what = (args: readonly string[]) => `helm ${args[0] ?? ""}`.trim();

function cancelled(args: readonly string[], result?: HelmResult) {
  return new HelmCancelledError(`${what(args)} was cancelled`, result);
}

function spawnHelm(binary: string, args: readonly string[], env: Record<string, string>, o: HelmRunOptions) {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise<HelmResult>((resolve, reject) => {
    const child = spawnInGroup(binary, argv(args, o), {
      env,
      cwd: o.cwd,
      shell: false,
      stdio: [o.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let stopped: "timeout" | "cancel" | undefined;
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    // helm may exit without reading stdin; the broken pipe is not an error of ours.
    if (o.stdin !== undefined) child.stdin!.on("error", () => {}).end(o.stdin);
    let killer: NodeJS.Timeout | undefined;
    const stop = (why: "timeout" | "cancel") => {
      if (stopped) return;
      stopped = why;
      killGroup(child, "SIGTERM");
      killer = setTimeout(() => killGroup(child, "SIGKILL"), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => stop("timeout"), timeoutMs);
    const onAbort = () => stop("cancel");
    if (o.signal?.aborted) stop("cancel");
    else o.signal?.addEventListener("abort", onAbort, { once: true });
    child.once("error", (err) => {
      clearTimeout(timer);
      o.signal?.removeEventListener("abort", onAbort);
      reject(new HelmNotFoundError(`cannot run ${binary}: ${err.message}`));
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      clearTimeout(killer);
      o.signal?.removeEventListener("abort", onAbort);
      const result = { stdout, stderr, code };
      // helm gone after SIGTERM: what it left in its group (a post-renderer ignoring SIGTERM) goes too.
      if (stopped) killGroup(child, "SIGKILL");
      if (stopped === "cancel") reject(cancelled(args, result));
      else if (stopped === "timeout")
        reject(new HelmTimeoutError(`${what(args)} timed out after ${timeoutMs / 1000}s`, result));
      else if (code !== 0) reject(helmErrorFrom(args, result));
      else resolve(result);
    });
  });
}

/** Runs helm; resolves with its output when it exits 0, throws a HelmError otherwise. */
export async function runHelm(args: readonly string[], o: HelmRunOptions = {}): Promise<HelmResult> {
  const binary = locateHelm(o.binary);
  helmVersion(binary);
  if (o.signal?.aborted) throw cancelled(args);
  const release = await slots.acquire(o.signal, o.tenant ?? "").catch((err: unknown) => {
    throw o.signal?.aborted ? cancelled(args) : err;
  });
  const home = o.home ?? new HelmHome();
  try {
    return await spawnHelm(binary, args, home.env(o.env), o);
  } finally {
    if (!o.home) home.remove();
    release();
  }
}

/** runHelm for synchronous callers (kustomize's build): no cancellation, not counted in the bound. */
export function runHelmSync(args: readonly string[], o: Omit<HelmRunOptions, "signal"> = {}): HelmResult {
  const binary = locateHelm(o.binary);
  helmVersion(binary);
  const home = o.home ?? new HelmHome();
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    const r = spawnSync(binary, argv(args, o), {
      env: home.env(o.env),
      cwd: o.cwd,
      input: o.stdin,
      encoding: "utf8",
      maxBuffer: MAX_OUTPUT_BYTES,
      timeout: timeoutMs,
      shell: false,
    });
    const result = { stdout: r.stdout ?? "", stderr: r.stderr ?? "", code: r.status };
    const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
    if (code === "ETIMEDOUT") throw new HelmTimeoutError(`${what(args)} timed out after ${timeoutMs / 1000}s`, result);
    if (r.error) throw new HelmError(`cannot run ${binary}: ${r.error.message}`, result);
    if (r.status !== 0) throw helmErrorFrom(args, result);
    return result;
  } finally {
    if (!o.home) home.remove();
  }
}
