// The resident helm engine (tools/helm-engine, decision 0042): one long-lived Go program built from the
// same helm v4 modules as the helm binary, running install/upgrade/rollback/test/uninstall for the
// HelmRelease controller from the same CLI arguments, without a process per action. Line-delimited
// JSON on its stdin/stdout; a request's post-render step is handed back here (`postRender`), so it
// runs in this process, and so does the wait for a release's objects under `--wait=flotilla` (`waitFor`:
// helm-controller's poller with the HelmRelease's healthCheckExprs, decision 0047). Failures come back as helm's CLI prints them and become the same typed errors
// (errors.ts); a timeout or an abort cancels the request in the engine. If the engine dies, the
// requests in flight fail with a HelmError and the next request starts a new one.
//
//   const { stdout } = await runHelmEngine(["install", "-n", "apps", "--", "web", dir], { kubeconfig, postRender });
import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { killGroup, spawnInGroup } from "../../util/process-group.js";
import { Semaphore } from "../../util/semaphore.js";
import { HelmCancelledError, HelmError, helmErrorFrom, type HelmResult, HelmTimeoutError } from "./errors.js";
import { HelmHome } from "./home.js";
import { locateHelmEngine } from "./engine-locate.js";

export interface HelmEngineOptions {
  /** The target's kubeconfig, as text (kubeconfig-file.ts kubeconfigFor). */
  kubeconfig: string;
  /** Post-renders helm's manifests when the arguments ask for a post-renderer (--post-renderer). */
  postRender?: (manifests: string) => string;
  /**
   * Waits for the release's objects when the arguments ask for `--wait=flotilla`; rejects with the
   * message helm reports as the action's failure. `signal` is aborted once the request is settled.
   */
  waitFor?: (w: EngineWait, signal: AbortSignal) => Promise<void>;
  /** The request is cancelled (and HelmTimeoutError thrown) after this long; 5 minutes by default. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Whose action this is (a namespace): the slots are shared fairly between tenants. */
  tenant?: string;
}

/** One object of a release to wait for, as the engine names it. */
export interface EngineWaitObject {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  /** A Job with spec.ttlSecondsAfterFinished: once gone (removed after it finished), it counts as done. */
  ttlAfterFinished?: boolean;
}

/** The engine's wait callback: the objects helm would have waited for, and helm's timeout for them. */
export interface EngineWait {
  objects: EngineWaitObject[];
  timeoutMs: number;
}

interface Reply {
  id: number;
  postRender?: string;
  wait?: EngineWait;
  done?: boolean;
  stdout?: string;
  stderr?: string;
  code?: number;
}

interface Pending {
  args: readonly string[];
  o: HelmEngineOptions;
  resolve: (r: HelmResult) => void;
  reject: (e: Error) => void;
  /** Aborted when the request is settled: a wait still running for it stops. */
  settled: AbortController;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
/** Actions in flight at once: goroutines waiting on the API server mostly, so far more than processes. */
const DEFAULT_CONCURRENCY = 32;
const slots = new Semaphore(DEFAULT_CONCURRENCY);

export function setHelmEngineConcurrency(limit: number): void {
  slots.resize(limit);
}

/** The engine's opt-in CPU profile (tools/helm-engine/main.go), the one variable of ours it is handed. */
const PROFILE_VAR = "FLOTILLA_HELM_ENGINE_CPUPROFILE";
const profileEnv = (): Record<string, string> =>
  process.env[PROFILE_VAR] ? { [PROFILE_VAR]: process.env[PROFILE_VAR] } : {};

const what = (args: readonly string[]) => `helm ${args[0] ?? ""}`.trim();

class Engine {
  private child?: ChildProcess;
  private home?: HelmHome;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stderrTail = "";

  private start(): ChildProcess {
    if (this.child) return this.child;
    const binary = locateHelmEngine();
    this.home = new HelmHome();
    const child = spawnInGroup(binary, [], {
      env: this.home.env(profileEnv()),
      shell: false,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child = child;
    child.stdin!.on("error", () => {}); // a dead engine is reported by its exit
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (this.stderrTail = (this.stderrTail + d).slice(-4096)));
    createInterface({ input: child.stdout!, crlfDelay: Infinity }).on("line", (line) => this.onLine(line));
    const gone = (why: string) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.home?.remove();
      this.home = undefined;
      const err = new HelmError(
        `the helm engine (${binary}) ${why}${this.stderrTail ? `: ${this.stderrTail.trim()}` : ""}`,
      );
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    child.once("error", (err) => gone(`could not run: ${err.message}`));
    child.once("close", (code, signal) => gone(`exited (${signal ?? `code ${code}`})`));
    // The engine must not keep flotilla alive once nothing waits on it.
    child.unref();
    for (const s of [child.stdin, child.stdout, child.stderr]) (s as unknown as { unref?: () => void })?.unref?.();
    return child;
  }

  private send(msg: object): void {
    this.child?.stdin!.write(`${JSON.stringify(msg)}\n`);
  }

  private onLine(line: string): void {
    let r: Reply;
    try {
      r = JSON.parse(line) as Reply;
    } catch {
      return;
    }
    const p = this.pending.get(r.id);
    if (!p) return;
    if (r.postRender !== undefined) {
      try {
        const rendered = p.o.postRender ? p.o.postRender(r.postRender) || "---\n" : r.postRender;
        this.send({ id: r.id, rendered });
      } catch (err) {
        this.send({ id: r.id, renderError: (err as Error).message });
      }
      return;
    }
    if (r.wait !== undefined) {
      this.answerWait(r.id, p, r.wait);
      return;
    }
    if (!r.done) return;
    this.pending.delete(r.id);
    const result: HelmResult = { stdout: r.stdout ?? "", stderr: r.stderr ?? "", code: r.code ?? 0 };
    if (result.code !== 0) p.reject(helmErrorFrom(p.args, result));
    else p.resolve(result);
  }

  private answerWait(id: number, p: Pending, w: EngineWait): void {
    if (!p.o.waitFor) {
      this.send({ id, waitError: "flotilla was not asked to wait for this request's objects" });
      return;
    }
    p.o.waitFor(w, p.settled.signal).then(
      () => this.send({ id, waited: true }),
      (err: unknown) => this.send({ id, waitError: (err as Error).message }),
    );
  }

  run(args: readonly string[], o: HelmEngineOptions): Promise<HelmResult> {
    const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise<HelmResult>((resolve, reject) => {
      const child = this.start();
      const id = this.nextId++;
      const stop = (err: Error) => {
        const p = this.pending.get(id);
        if (!p) return;
        this.pending.delete(id);
        this.send({ id, cancel: true });
        p.reject(err);
      };
      const onAbort = () => stop(new HelmCancelledError(`${what(args)} was cancelled`));
      const timer = setTimeout(
        () => stop(new HelmTimeoutError(`${what(args)} timed out after ${timeoutMs / 1000}s`)),
        timeoutMs,
      );
      const settled = new AbortController();
      const settle = () => {
        settled.abort();
        clearTimeout(timer);
        o.signal?.removeEventListener("abort", onAbort);
      };
      this.pending.set(id, {
        args,
        o,
        settled,
        resolve: (r) => (settle(), resolve(r)),
        reject: (e) => (settle(), reject(e)),
      });
      o.signal?.addEventListener("abort", onAbort, { once: true });
      // Referenced while a request waits, so a caller awaiting it keeps the loop alive.
      child.ref();
      this.send({ id, args, kubeconfig: o.kubeconfig });
    }).finally(() => {
      if (this.pending.size === 0) this.child?.unref();
    });
  }

  stop(): void {
    if (this.child) killGroup(this.child, "SIGKILL");
  }
}

const engine = new Engine();

/** Runs one helm command in the resident engine; resolves as runHelm does, throws the same HelmErrors. */
export async function runHelmEngine(args: readonly string[], o: HelmEngineOptions): Promise<HelmResult> {
  if (o.signal?.aborted) throw new HelmCancelledError(`${what(args)} was cancelled`);
  const release = await slots.acquire(o.signal, o.tenant ?? "").catch((err: unknown) => {
    throw o.signal?.aborted ? new HelmCancelledError(`${what(args)} was cancelled`) : err;
  });
  try {
    return await engine.run(args, o);
  } finally {
    release();
  }
}

/** Stops the engine (tests, shutdown); the next request starts a new one. */
export function stopHelmEngine(): void {
  engine.stop();
}
