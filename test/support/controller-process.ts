// The real `flotilla controller` process for e2e tests: started from bin/flotilla.js against the
// management plane with short leader-election timings and a label selector (a shard) that keeps it
// to the test's own objects. Its JSON log lines are kept; the probes address is read from them.
import { type ChildProcess, spawn } from "node:child_process";
import { afterAll } from "vitest";
import { eventually, plane } from "./fleet-context.js";

/** The controllers' Lease duration in these tests. */
export const LEASE_SECONDS = 8;

export interface ControllerProcess {
  child: ChildProcess;
  /** Parsed JSON log lines so far. */
  logs: Record<string, unknown>[];
  /** http://127.0.0.1:PORT of /healthz, /readyz and /metrics, once the process has said it. */
  healthUrl(): Promise<string>;
  /** http://127.0.0.1:PORT of the webhook receiver, once this process leads and has said it. */
  receiverUrl(): Promise<string>;
  /** http://127.0.0.1:PORT of Flux's event endpoint (--events-addr), once this process leads and has said it. */
  eventsUrl(): Promise<string>;
  /** Waits for the process to exit (after a kill). */
  exited(): Promise<void>;
}

const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

export interface ControllerOptions {
  namespace: string;
  shard: string;
  storagePath: string;
  /** Fixed artifact address (as a Service gives a deployment), so a restarted process serves the same URLs. */
  storageAddr?: string;
  /** Arguments placed first, before this harness's own (which win where both set a flag): e.g. exactly
   * what `flotilla install` writes into the Deployment, with loopback addresses laid over it. */
  leadingArgs?: string[];
  extraArgs?: string[];
  /** The process's environment (default: this one's). */
  env?: NodeJS.ProcessEnv;
}

export function startController(opts: ControllerOptions): ControllerProcess {
  const child = spawn(
    process.execPath,
    [
      "bin/flotilla.js",
      "controller",
      ...(opts.leadingArgs ?? []),
      "--kubeconfig",
      plane("management").kubeconfig,
      "--runtime-namespace",
      opts.namespace,
      "--storage-path",
      opts.storagePath,
      "--storage-addr",
      opts.storageAddr ?? "127.0.0.1:0",
      "--health-addr",
      "127.0.0.1:0",
      "--receiver-addr",
      "127.0.0.1:0",
      // Over the Deployment's --metrics-addr=:8080 when leadingArgs carry it: never a fixed port here.
      "--metrics-addr",
      "127.0.0.1:0",
      "--events-addr",
      "127.0.0.1:0",
      // Generous: a renewal that takes seconds on a loaded 2-core machine must not cost the lease (losing it
      // ends the process); a replica killed on purpose is replaced within LEASE_SECONDS.
      "--leader-election-lease-duration",
      `${LEASE_SECONDS}s`,
      "--leader-election-renew-deadline",
      "6s",
      "--leader-election-retry-period",
      "1s",
      "--watch-label-selector",
      `flotilla.dev/shard=${opts.shard}`,
      "--install-crds",
      ...(opts.extraArgs ?? []),
      ...(process.env.FLOTILLA_TEST_CONTROLLER_LOG === "debug" ? ["--log-level", "debug"] : []),
    ],
    { stdio: ["ignore", "ignore", "pipe"], env: opts.env ?? process.env },
  );
  started.push(child);
  const logs: Record<string, unknown>[] = [];
  let pending = "";
  child.stderr!.on("data", (d: Buffer) => {
    const lines = (pending + d.toString()).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      // FLOTILLA_TEST_CONTROLLER_LOG=1 (=debug: at debug level) echoes the controller's log while a test runs.
      if (process.env.FLOTILLA_TEST_CONTROLLER_LOG) process.stderr.write(`[controller] ${line}\n`);
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ msg: line });
      }
    }
  });
  const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    logs,
    healthUrl: () =>
      eventually("the controller's probes address", async () => {
        const line = logs.find((l) => l.msg === "flotilla controller running");
        return line ? `http://${String(line.health)}` : undefined;
      }),
    receiverUrl: () =>
      eventually(
        "the controller's webhook receiver address",
        async () => logs.find((l) => l.msg === "controllers started")?.receiverServer as string | undefined,
      ),
    eventsUrl: () =>
      eventually(
        "the controller's event endpoint address",
        async () => logs.find((l) => l.msg === "controllers started")?.eventServer as string | undefined,
      ),
    exited: () => exit,
  };
}
